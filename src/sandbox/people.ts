// Brokerages (each based in one emirate) and their agents (each in exactly one brokerage).
import type { Emirate } from './geography.js';
import type { Agent, Broker } from './model.js';
import type { Rng } from './random.js';

const BROKERS_PER_EMIRATE: [Emirate, string, number][] = [
  ['dubai', 'Dubai', 18],
  ['abu-dhabi', 'Abu Dhabi', 8],
  ['sharjah', 'Sharjah', 5],
  ['ajman', 'Ajman', 3],
  ['ras-al-khaimah', 'Ras Al Khaimah', 3],
  ['fujairah', 'Fujairah', 2],
  ['umm-al-quwain', 'Umm Al Quwain', 2],
];
const BROKER_WORDS = [
  'Crescent',
  'Falcon',
  'Pearl',
  'Oasis',
  'Dhow',
  'Skyline',
  'Golden Sands',
  'Palm Gate',
  'Desert Rose',
  'Azure',
  'Saffron',
  'Harbour',
  'Lighthouse',
  'Cedar',
  'Majlis',
  'Sandstone',
  'Horizon',
  'Gulf Breeze',
  'Coral',
  'Minaret',
  'Date Palm',
  'Silver Dune',
  'Bluewater',
  'Ghaf Tree',
  'Seven Sands',
  'Arabian Key',
  'Sail',
  'Lagoon',
  'Summit',
  'Emerald',
];
const BROKER_SUFFIXES = ['Properties', 'Real Estate', 'Realty', 'Homes', 'Estates', 'Property Brokers'];
const STREETS = [
  'Sheikh Zayed Road',
  'Al Wasl Road',
  'Marina Walk',
  'Corniche Road',
  'Al Khaleej Street',
  'Hamdan Street',
  'King Faisal Street',
  'Al Ittihad Road',
  'Al Qasimi Street',
];

const FIRST = [
  'Ahmed',
  'Fatima',
  'Omar',
  'Aisha',
  'Rahul',
  'Priya',
  'James',
  'Sophie',
  'Olga',
  'Dmitri',
  'Maria',
  'Jose',
  'Hassan',
  'Layla',
  'Yusuf',
  'Mariam',
  'Arjun',
  'Sara',
  'Daniel',
  'Emma',
  'Ali',
  'Noor',
  'Ivan',
  'Chloe',
  'Karim',
  'Hana',
  'Vikram',
  'Anna',
  'Tariq',
  'Leila',
  'Marco',
  'Elena',
];
const LAST = [
  'Al Mansouri',
  'Khan',
  'Sharma',
  'Smith',
  'Petrova',
  'Haddad',
  'Santos',
  'Nair',
  'Ivanov',
  'Rahman',
  'Al Suwaidi',
  'Williams',
  'Farouk',
  'Kapoor',
  'Dubois',
  'Mueller',
  'Rossi',
  'Hussain',
  'Cruz',
  'Baker',
  'Qureshi',
  'Volkova',
];
const NATIONALITIES: { code: string; name: string }[] = [
  { code: 'AE', name: 'United Arab Emirates' },
  { code: 'IN', name: 'India' },
  { code: 'PK', name: 'Pakistan' },
  { code: 'GB', name: 'United Kingdom' },
  { code: 'RU', name: 'Russia' },
  { code: 'EG', name: 'Egypt' },
  { code: 'LB', name: 'Lebanon' },
  { code: 'PH', name: 'Philippines' },
  { code: 'FR', name: 'France' },
  { code: 'DE', name: 'Germany' },
  { code: 'JO', name: 'Jordan' },
  { code: 'IT', name: 'Italy' },
];
const LANGUAGES = [
  { id: 1, name: 'English' },
  { id: 2, name: 'Arabic' },
  { id: 3, name: 'Hindi' },
  { id: 4, name: 'Urdu' },
  { id: 5, name: 'Russian' },
  { id: 6, name: 'French' },
  { id: 7, name: 'Tagalog' },
  { id: 8, name: 'Persian' },
  { id: 9, name: 'German' },
  { id: 10, name: 'Mandarin' },
  { id: 11, name: 'Italian' },
  { id: 12, name: 'Spanish' },
];
const POSITIONS = [
  'Property Consultant',
  'Senior Property Consultant',
  'Sales Manager',
  'Leasing Specialist',
  'Investment Advisor',
  'Team Leader',
];

export const slugify = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const phone = (rng: Rng, mobile: boolean) =>
  mobile ? `+9715${rng.int(0, 8)}${rng.int(1000000, 9999999)}` : `+971${rng.int(2, 9)}${rng.int(1000000, 9999999)}`;

export function makeBrokers(rng: Rng): Broker[] {
  const brokers: Broker[] = [];
  const names = rng.sample(BROKER_WORDS, BROKER_WORDS.length);
  let id = 1000;
  let n = 0;
  for (const [emirate, city, count] of BROKERS_PER_EMIRATE) {
    for (let i = 0; i < count; i++) {
      id += rng.int(3, 97);
      const name = `${names[n % names.length]} ${BROKER_SUFFIXES[Math.floor(n / names.length) + (n % BROKER_SUFFIXES.length)] ?? 'Properties'}`;
      n++;
      const years = rng.int(8, 120);
      brokers.push({
        id,
        name,
        slug: slugify(name),
        emirate,
        city,
        address: `Office ${rng.int(101, 3405)}, ${rng.pick(STREETS)}, ${city}`,
        phone: phone(rng, false),
        description: `${name} is a ${city} brokerage with ${years} years of combined experience in sales, leasing and off-plan investment. We help buyers, tenants and landlords across the UAE find the right home or office, with honest advice and market data at every step`,
        logo: `https://img.sandbox-manzil.example/brokers/${id}.png`,
        boost: rng.next(),
      });
    }
  }
  return brokers;
}

export function makeAgents(rng: Rng, brokers: readonly Broker[]): Agent[] {
  const agents: Agent[] = [];
  let id = 200000;
  for (const broker of brokers) {
    const count = rng.int(4, 12);
    for (let i = 0; i < count; i++) {
      id += rng.int(1, 400);
      const name = `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
      const languages = [LANGUAGES[0]!, ...rng.sample(LANGUAGES.slice(1), rng.int(0, 2))].sort((a, b) => a.id - b.id);
      agents.push({
        id,
        brokerId: broker.id,
        name,
        slug: `${slugify(name)}-${id}`,
        image: rng.chance(0.15) ? '' : `https://img.sandbox-manzil.example/agents/${id}.jpg`,
        position: rng.pick(POSITIONS),
        nationality: rng.pick(NATIONALITIES),
        languages,
        phone: phone(rng, true),
        superAgent: rng.chance(0.2),
        boost: rng.next(),
      });
    }
  }
  return agents;
}
