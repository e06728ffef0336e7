// What a person sees when a command cannot be understood: short, friendly, and with a way forward.
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/query/index.js';

const WHERE_RENT = 'Where? Add a place, like "/rent marina 2br under 120k".';

const cases: [text: string, error: string][] = [
  ['', 'Tell me what to look for, like "/rent marina 2br under 120k". Say "help" to see everything I can do.'],
  ['/manzil', 'Tell me what to look for, like "/rent marina 2br under 120k". Say "help" to see everything I can do.'],
  [
    '/hello marina',
    'I don\'t know "hello". Try one of: rent, buy, projects, transactions, adrec, trend, agents, brokers, agent, broker, property, developers, location, value, compare, alerts, digest. For example "/rent marina 2br under 120k".',
  ],
  ['/rent', WHERE_RENT],
  ['/rent 2br under 120k', WHERE_RENT],
  ['/buy', 'Where? Add a place, like "/buy downtown 2 bed under 3.5m".'],
  ['/projects 2br', 'Where? Add a place, like "/projects dubai hills 2br under 2m".'],
  ['/trend', 'Where? Add a place, like "/trend marina".'],
  ['/transactions marina 2br', 'Sold or rented? Try "/transactions sold marina 2br".'],
  ['/txn marina', 'Sold or rented? Try "/transactions sold marina 2br".'],
  ['/rent marina 12x br', 'I couldn\'t read "12x" as a number of bedrooms. Try "2br" or "1-3 br".'],
  ['/rent marina 12xbr', 'I couldn\'t read "12x" as a number of bedrooms. Try "2br" or "1-3 br".'],
  ['/rent marina 2.5 baths', 'I couldn\'t read "2.5" as a number of bathrooms. Try "2 baths" or "1-2 baths".'],
  ['/rent marina 25br', '25 bedrooms is more than I can search for; the most is 20.'],
  ['/sold marina 1-3br', 'Transactions take one bedroom count, not "1-3br". Try "2br" or "studio".'],
  ['/sold marina 2 or 3 br', 'Transactions take one bedroom count, not "2 or 3 br". Try "2br" or "studio".'],
  ['/rent marina 2br 1 bath studio baths', '"Studio" counts bedrooms, not bathrooms. Try "studio 1 bath".'],
  ['/rent marina under', '"under" what? Add an amount, like "under 120k".'],
  ['/rent marina under cheap', 'I couldn\'t read "cheap" as an amount. Try "under 120k" or "under 1.2m".'],
  ['/rent marina between 80k', 'Between 80k and what? Try "between 80k and 120k".'],
  [
    '/rent marina over 200k under 100k',
    'The minimum price (AED 200,000) is above the maximum (AED 100,000). Try "between 80k and 120k".',
  ],
  [
    '/buy marina over 2000 sqft under 1000 sqft',
    'The minimum area (2,000 sqft) is above the maximum (1,000 sqft). Try "between 1000 and 2000 sqft".',
  ],
  ['/rent marina under 100k under 150k', 'You gave two maximum prices ("under 100k" and "under 150k"). Keep one.'],
  [
    '/rent marina off-plan',
    'Ready and off-plan only apply when buying ("off plan"). Try "/buy marina 2br off-plan", or "/projects marina" for new projects.',
  ],
  [
    '/rent marina ready',
    'Ready and off-plan only apply when buying ("ready"). Try "/buy marina 2br off-plan", or "/projects marina" for new projects.',
  ],
  [
    '/rent office business bay weekly',
    'Commercial rents are yearly or monthly, not weekly ("weekly"). Try "/rent office business bay under 20k monthly".',
  ],
  [
    '/rent commercial marina 500 daily',
    'Commercial rents are yearly or monthly, not daily ("daily"). Try "/rent office business bay under 20k monthly".',
  ],
  [
    '/buy marina 10k monthly',
    '"monthly" is a rent period; sale prices are totals. Try "/rent marina 2br under 10k monthly" to rent.',
  ],
  [
    '/rent commercial apartment marina',
    '"apartment" is not a commercial property type. Try office, retail, shop, warehouse, showroom or land.',
  ],
  [
    '/rent office 2br business bay',
    'Commercial rentals can\'t be filtered by bedrooms ("2br"). Try "/rent marina 2br under 120k".',
  ],
  [
    '/rent shop deira furnished',
    'Commercial rentals can\'t be filtered by furnishing ("furnished"). Try "/rent marina 2br under 120k".',
  ],
  [
    '/projects marina 2 baths',
    'New projects can\'t be filtered by bathrooms ("2 baths"). Try "/projects dubai hills 2br under 2m".',
  ],
  [
    '/rent apartment villa marina',
    'One property type at a time, please: you asked for "apartment", "villa". Try "/rent marina 2br under 120k".',
  ],
  ['/rent marina furnished unfurnished', 'You asked for both "furnished" and "unfurnished". Pick one.'],
  ['/rent marina cheapest most expensive', 'You asked for both "cheapest" and "most expensive". Pick one.'],
  [
    '/rent marina most sales',
    'Rentals can\'t be sorted by "most sales". Try one of: newest, featured, cheapest, most expensive.',
  ],
  [
    '/agents marina cheapest',
    'Agent searches can\'t be sorted by "cheapest". Try one of: most sales, most rentals, featured.',
  ],
  [
    '/rent marina last 6 months',
    'Rentals can\'t be filtered by time period ("last 6 months"). Try "/rent marina 2br under 120k".',
  ],
  ['/rent marina for sale', '"for sale" doesn\'t fit /rent. To buy, try "/buy marina 2br".'],
  ['/buy marina for rent', '"for rent" doesn\'t fit /buy. To rent, try "/rent marina 2br".'],
  ['/sold marina rented', 'You asked for both "sold" and "rented". Pick one.'],
  ['/projects marina for rent', 'New projects are for sale only ("for rent"). Try "/rent marina 2br" for rentals.'],
  [
    '/transactions sold commercial marina',
    'Transactions are residential only ("commercial"). Try "/transactions sold marina 2br".',
  ],
  ['/property', '/property needs a number. Try "/property 15010364"; the number is on each listing.'],
  [
    '/agent marina',
    '"marina" is not a number. /agent needs a number. Try "/agent 201460"; find agents with "/agents marina".',
  ],
  ['/property 123 page 2', 'Property details have no pages ("page 2"). Try "/property 15010364".'],
  ['/property 123 marina', 'I didn\'t understand "marina". Try "/property 15010364".'],
  [
    '/developers mars',
    'I don\'t know the emirate "mars". Try one of: dubai, abu dhabi, sharjah, ajman, ras al khaimah, fujairah, umm al quwain, al ain.',
  ],
  ['/rent marina page 0', 'Pages start at 1. Try "page 2".'],
  ['/rent marina page x', 'I couldn\'t read "x" as a page number. Try "page 2".'],
  ['/adrec from 32/01/2024', 'I couldn\'t read "32/01/2024" as a date. Use DD/MM/YYYY, like "from 01/01/2024".'],
  ['/adrec to 30/02/2024', 'I couldn\'t read "30/02/2024" as a date. Use DD/MM/YYYY, like "to 31/12/2024".'],
  [
    '/adrec from 01/03/2024 to 01/01/2024',
    'The start date 01/03/2024 is after the end date 01/01/2024. Try "from 01/01/2024 to 31/03/2024".',
  ],
  ['/adrec under 1m', 'ADREC records can\'t be filtered by price ("under 1m"). Try "/adrec al reem island".'],
  [
    '/adrec "Al Reem, Yas"',
    'District names have no commas ("Al Reem, Yas"). Quote each one: "Al Reem Island", "Yas Island".',
  ],
  ['/trend marina 2br', 'Price trends can\'t be filtered by bedrooms ("2br"). Try "/trend marina".'],
  [
    '/trend marina office',
    'Price trends don\'t cover "office". Types here: apartment, villa, townhouse, penthouse, compound, duplex, full floor, half floor, whole building, bulk rent unit, bungalow, hotel apartment.',
  ],
  [
    '/rent "Dubai Marina',
    'There is an opening quote without a closing one. Put the place in quotes like "Dubai Marina".',
  ],
  ['/rent "" 2br', 'The quotes are empty. Put a place inside them, like "Dubai Marina".'],
  [
    '/rent "Dubai Marina" "JBR"',
    'One place at a time, please: "Dubai Marina", "JBR". Try "/rent marina 2br under 120k".',
  ],
  ['/rent "Dubai Marina" jbr', 'I didn\'t understand "jbr"; the place is already in quotes.'],
  ['/location', 'Which place? Try "/location marina".'],
  ['/agents marina commercial', 'Commercial rent or commercial sale? Try "/agents marina commercial rent".'],
  ['/brokers marina rent', 'Brokerage searches don\'t take "rent". Try "/brokers marina".'],
  ['/rent marina detailed', '"detailed" works with /agents and /brokers only. Try "/agents detailed marina".'],
  ['/developers page 2 page 3', 'You asked for both "page 2" and "page 3". Pick one.'],
  [
    '/rent marina ' + 'x'.repeat(490),
    'That\'s 503 characters; I read commands of up to 500. Try something shorter, like "/rent marina 2br under 120k".',
  ],
];

describe('errors', () => {
  it('has at least 30 cases', () => expect(cases.length).toBeGreaterThanOrEqual(30));
  it.each(cases)('%s', (text, error) => {
    expect(parseCommand(text)).toEqual({ ok: false, error });
  });

  it('every refusal that suggests a command suggests one that works', () => {
    for (const [, error] of cases) {
      for (const [, suggestion] of error.matchAll(/"(\/[^"]+)"/g)) {
        expect(parseCommand(suggestion!), `${suggestion} (from: ${error})`).toMatchObject({ ok: true });
      }
    }
  });
});
