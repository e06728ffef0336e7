// Developers per emirate (EMIRATES, `al-ain` included) and their off-plan projects.
import { EMIRATES } from '../api/operations.js';
import type { Geography, Area } from './geography.js';
import type { Developer, Project } from './model.js';
import { slugify } from './people.js';
import type { Rng } from './random.js';

type Region = (typeof EMIRATES)[number];
const DEVELOPERS_PER_REGION: Record<Region, number> = {
  dubai: 28,
  'abu-dhabi': 10,
  sharjah: 6,
  ajman: 4,
  'ras-al-khaimah': 5,
  fujairah: 2,
  'umm-al-quwain': 2,
  'al-ain': 2,
};
const DEV_WORDS = [
  'Zenith',
  'Meridian',
  'Aurora',
  'Nakheel Grove',
  'Qasr',
  'Lumina',
  'Solace',
  'Tamarind',
  'Vantage',
  'Alcove',
  'Serene',
  'Riviera',
  'Sidra',
  'Bayan',
  'Noor',
  'Wahat',
  'Marjan Bay',
  'Atlas',
  'Citrine',
  'Obsidian',
  'Jade',
  'Halcyon',
  'Larimar',
  'Sapphire',
  'Mirage',
  'Ivory',
  'Crest',
  'Orchid',
  'Dune',
  'Amber',
  'Nova',
  'Tidal',
  'Falaj',
  'Sahra',
  'Kinza',
  'Layan',
  'Rimal',
  'Hessa',
  'Yasmin',
  'Opal',
  'Basalt',
  'Cobalt',
  'Topaz',
  'Verde',
  'Aster',
  'Linden',
  'Maple',
  'Sable',
  'Willow',
  'Quartz',
  'Onyx',
  'Talc',
  'Ember',
  'Beryl',
  'Garnet',
  'Cypress',
  'Indigo',
  'Saga',
  'Ziva',
];
const DEV_SUFFIXES = ['Developments', 'Properties', 'Real Estate Development', 'Group', 'Development'];
const PROJECT_WORDS = [
  'Heights',
  'Residences',
  'Gardens',
  'Views',
  'Park',
  'Terraces',
  'Bay',
  'Grove',
  'Vista',
  'Point',
  'Collection',
  'Villas',
  'Lofts',
  'Square',
];

/** The region a community's developers come from (Al Ain has its own list upstream). */
export const regionOf = (p: Area): Region => (p.city === 'Al Ain' ? 'al-ain' : p.emirate);

export function makeDevelopers(rng: Rng): Developer[] {
  const words = rng.sample(DEV_WORDS, DEV_WORDS.length);
  const developers: Developer[] = [];
  let n = 0;
  for (const region of EMIRATES) {
    for (let i = 0; i < DEVELOPERS_PER_REGION[region]; i++) {
      const name = `${words[n % words.length]} ${DEV_SUFFIXES[n % DEV_SUFFIXES.length]}`;
      n++;
      const year = rng.int(1997, 2022);
      const id = rng.uuid();
      developers.push({
        id,
        name,
        slug: slugify(name),
        region,
        // The real descriptions are HTML.
        description: `<p><strong>${name}</strong> has built homes in the UAE since ${year}.</p>\n<p>Its communities are known for:</p>\n<ul><li>on-time handover</li><li>flexible payment plans</li><li>resort-style amenities</li></ul>`,
        establishedSince: new Date(Date.UTC(year, rng.int(0, 11), 1)).toISOString(),
        logo: `https://img.sandbox-manzil.example/developers/${slugify(name)}.png`,
        boost: rng.next(),
      });
    }
  }
  return developers;
}

export function makeProjects(rng: Rng, geo: Geography, developers: readonly Developer[], now: number): Project[] {
  const projects: Project[] = [];
  const byRegion = new Map<string, Developer[]>();
  for (const d of developers) byRegion.set(d.region, [...(byRegion.get(d.region) ?? []), d]);
  for (const community of geo.areas.filter((p) => p.level === 'community')) {
    const devs = byRegion.get(regionOf(community)) ?? [];
    const count = 1 + Math.round(community.weight * 0.8) + rng.int(0, 2);
    for (let i = 0; i < count; i++) {
      const dev = rng.pick(devs);
      const houses = community.style === 'villas' || (community.style === 'mixed' && rng.chance(0.5));
      const type = houses ? rng.pick(['villa', 'townhouse']) : 'apartment';
      const low = houses ? rng.int(2, 4) : rng.int(0, 2);
      const bedrooms = Array.from({ length: rng.int(2, 4) }, (_, k) => low + k);
      const areaFrom = houses ? 1500 + (low - 2) * 700 + rng.int(0, 300) : [400, 700, 1100][low]! + rng.int(0, 120);
      const areaTo = areaFrom + bedrooms.length * (houses ? 900 : 450);
      const priceFrom = Math.round((areaFrom * community.ppsf * rng.between(1.02, 1.15)) / 1000) * 1000;
      const id = rng.uuid();
      const images = Array.from(
        { length: rng.int(2, 6) },
        (_, k) => `https://img.sandbox-manzil.example/p/${id}/${k + 1}.${rng.chance(0.4) ? 'webp' : 'jpg'}`,
      );
      const start = new Date(now);
      const delivery = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + rng.int(6, 48), 1) - 1000;
      const sales = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - rng.int(0, 18), rng.int(1, 28));
      projects.push({
        id,
        name: `${rng.pick(DEV_WORDS)} ${rng.pick(PROJECT_WORDS)}`,
        areaId: community.id,
        developerId: dev.id,
        type,
        bedrooms,
        priceFrom,
        effectivePrice: Math.round((priceFrom * rng.between(0.92, 1)) / 1000) * 1000,
        areaFrom,
        areaTo,
        images,
        deliveryDate: new Date(delivery).toISOString(),
        salesStartDate: new Date(sales).toISOString(),
        boost: rng.next(),
      });
    }
  }
  return projects;
}
