// The areas of the sandbox market: cities, communities and the buildings inside them, with real-world
// coordinates and 2026-like sale prices per sqft. Ids 50, 51 and 86 match the real service.
import { ADDED_COMMUNITIES } from './areas-added.js';

export type Emirate = 'dubai' | 'abu-dhabi' | 'sharjah' | 'ajman' | 'ras-al-khaimah' | 'fujairah' | 'umm-al-quwain';
export type Level = 'city' | 'community' | 'building';
/** What is built in a community: towers (apartments), villas, or both. */
export type Style = 'towers' | 'villas' | 'mixed';

export interface Area {
  id: number;
  name: string;
  level: Level;
  parentId?: number;
  emirate: Emirate;
  /** The city an area belongs to, for addresses and developers (`al-ain` is a city of Abu Dhabi). */
  city: string;
  lat: number;
  lon: number;
  /** Sale price, AED per sqft. */
  ppsf: number;
  /** Gross rental yield: annual rent = sale price x yield. */
  rentYield: number;
  style: Style;
  /** Share of the market's listings. */
  weight: number;
  /** One of the areas added after the first market (areas-added.ts): its listings are a stock of their own. */
  added?: boolean;
}

type CityRow = [id: number, name: string, emirate: Emirate, lat: number, lon: number, ppsf: number];
const CITIES: CityRow[] = [
  [2, 'Dubai', 'dubai', 25.2048, 55.2708, 2000],
  [6, 'Abu Dhabi', 'abu-dhabi', 24.4539, 54.3773, 1300],
  [4, 'Sharjah', 'sharjah', 25.3463, 55.4209, 750],
  [5, 'Ajman', 'ajman', 25.4052, 55.5136, 480],
  [7, 'Ras Al Khaimah', 'ras-al-khaimah', 25.8007, 55.9762, 1000],
  [8, 'Fujairah', 'fujairah', 25.1288, 56.3265, 550],
  [9, 'Umm Al Quwain', 'umm-al-quwain', 25.5647, 55.5552, 520],
  [10, 'Al Ain', 'abu-dhabi', 24.2075, 55.7447, 650],
];

type CommunityRow = [
  id: number,
  name: string,
  cityId: number,
  lat: number,
  lon: number,
  ppsf: number,
  rentYield: number,
  style: Style,
  weight: number,
];
const COMMUNITIES: CommunityRow[] = [
  [50, 'Dubai Marina', 2, 25.0805, 55.1403, 2230, 0.065, 'towers', 10],
  [51, 'Downtown Dubai', 2, 25.1972, 55.2744, 3050, 0.06, 'towers', 8],
  [86, 'Business Bay', 2, 25.185, 55.265, 2550, 0.065, 'towers', 8],
  [41, 'Palm Jumeirah', 2, 25.1124, 55.139, 4350, 0.05, 'mixed', 6],
  [42, 'Dubai Hills Estate', 2, 25.112, 55.245, 2430, 0.06, 'mixed', 6],
  [43, 'Jumeirah Village Circle', 2, 25.059, 55.209, 1480, 0.075, 'towers', 9],
  [44, 'Jumeirah Lake Towers', 2, 25.0693, 55.1413, 1550, 0.072, 'towers', 6],
  [45, 'Arabian Ranches', 2, 25.055, 55.267, 1650, 0.055, 'villas', 4],
  [46, 'Dubai Silicon Oasis', 2, 25.12, 55.38, 1100, 0.075, 'towers', 3],
  [47, 'Jumeirah Beach Residence', 2, 25.078, 55.134, 2300, 0.065, 'towers', 4],
  [48, 'DIFC', 2, 25.211, 55.282, 3000, 0.062, 'towers', 3],
  [49, 'Dubai Creek Harbour', 2, 25.2, 55.345, 2400, 0.062, 'towers', 4],
  [53, 'Al Barsha', 2, 25.11, 55.2, 1400, 0.07, 'mixed', 3],
  [60, 'Al Reem Island', 6, 24.499, 54.405, 1250, 0.07, 'towers', 5],
  [61, 'Saadiyat Island', 6, 24.54, 54.43, 2100, 0.055, 'mixed', 4],
  [62, 'Yas Island', 6, 24.488, 54.608, 1500, 0.065, 'mixed', 4],
  [63, 'Al Raha Beach', 6, 24.45, 54.6, 1400, 0.068, 'towers', 3],
  [64, 'Khalifa City', 6, 24.42, 54.58, 1000, 0.06, 'villas', 3],
  [65, 'Al Reef', 6, 24.46, 54.68, 900, 0.07, 'villas', 2],
  [66, 'Al Jimi', 10, 24.24, 55.73, 650, 0.07, 'villas', 1],
  [67, 'Al Muwaiji', 10, 24.21, 55.71, 620, 0.072, 'mixed', 1],
  [70, 'Al Majaz', 4, 25.326, 55.385, 750, 0.08, 'towers', 3],
  [71, 'Aljada', 4, 25.304, 55.47, 950, 0.075, 'mixed', 3],
  [72, 'Al Nahda Sharjah', 4, 25.3, 55.37, 620, 0.08, 'towers', 2],
  [73, 'Muwaileh', 4, 25.3, 55.45, 680, 0.078, 'mixed', 2],
  [75, 'Al Nuaimiya', 5, 25.39, 55.45, 450, 0.085, 'towers', 2],
  [76, 'Ajman Downtown', 5, 25.405, 55.445, 500, 0.082, 'towers', 2],
  [77, 'Al Rashidiya', 5, 25.4, 55.435, 420, 0.085, 'towers', 1],
  [80, 'Al Marjan Island', 7, 25.67, 55.74, 1500, 0.07, 'towers', 2],
  [81, 'Al Hamra Village', 7, 25.69, 55.78, 1000, 0.068, 'mixed', 2],
  [82, 'Mina Al Arab', 7, 25.73, 55.85, 1100, 0.068, 'mixed', 1],
  [90, 'Al Faseel', 8, 25.14, 56.35, 560, 0.075, 'mixed', 1],
  [91, 'Dibba Al Fujairah', 8, 25.59, 56.26, 480, 0.075, 'villas', 1],
  [95, 'Al Salamah', 9, 25.52, 55.58, 500, 0.08, 'villas', 1],
  [96, 'Umm Al Quwain Marina', 9, 25.54, 55.59, 620, 0.078, 'mixed', 1],
];

/** [id, name, community id, price factor against the community]. */
type BuildingRow = [id: number, name: string, communityId: number, factor: number];
const BUILDINGS: BuildingRow[] = [
  [5001, 'Vida Residences Dubai Marina', 50, 1.05],
  [5002, 'Marina Gate', 50, 1.04],
  [5003, 'Cayan Tower', 50, 0.98],
  [5004, 'Princess Tower', 50, 0.92],
  [5005, 'Marina Promenade', 50, 1.02],
  [5006, 'Al Sahab', 50, 0.94],
  [5101, 'Burj Khalifa', 51, 1.2],
  [5102, 'Boulevard Point', 51, 1.05],
  [5103, 'Act One | Act Two Towers', 51, 0.95],
  [5104, 'Burj Vista', 51, 1.0],
  [5105, 'The Address Residences Dubai Opera', 51, 1.12],
  [8601, 'Executive Towers', 86, 0.9],
  [8602, 'Damac Maison The Distinction', 86, 1.0],
  [8603, 'Peninsula One', 86, 1.08],
  [8604, 'Bay Square', 86, 0.95],
  [4101, 'Shoreline Apartments', 41, 0.9],
  [4102, 'Oceana Residences', 41, 0.95],
  [4201, 'Park Heights', 42, 0.95],
  [4202, 'Collective 2.0', 42, 0.9],
  [4301, 'Bloom Towers', 43, 1.0],
  [4302, 'Binghatti Gems', 43, 0.95],
  [4303, 'Belgravia Heights', 43, 1.05],
  [4401, 'Goldcrest Views', 44, 0.95],
  [4402, 'Lake Terrace', 44, 1.0],
  [4701, 'Sadaf', 47, 0.98],
  [4702, 'Rimal', 47, 1.0],
  [4901, 'Creek Rise', 49, 1.0],
  [4902, 'Harbour Gate', 49, 1.03],
  [6001, 'Sun Tower', 60, 1.02],
  [6002, 'Sky Tower', 60, 0.97],
  [6003, 'The Gate Tower', 60, 1.0],
  [6101, 'Mamsha Al Saadiyat', 61, 1.1],
  [6201, 'Ansam', 62, 0.95],
  [6202, "Water's Edge", 62, 0.9],
  [6301, 'Al Muneera', 63, 1.05],
  [7101, 'Aljada Boulevard Residences', 71, 1.0],
  [8001, 'Pacific Al Marjan', 80, 0.9],
];

function build(): Area[] {
  const areas: Area[] = [];
  const byId = new Map<number, Area>();
  const add = (p: Area) => {
    if (byId.has(p.id)) throw new Error(`duplicate area id ${p.id}`);
    byId.set(p.id, p);
    areas.push(p);
  };
  for (const [id, name, emirate, lat, lon, ppsf] of CITIES) {
    add({ id, name, level: 'city', emirate, city: name, lat, lon, ppsf, rentYield: 0.07, style: 'mixed', weight: 0 });
  }
  for (const [id, name, cityId, lat, lon, ppsf, rentYield, style, weight] of COMMUNITIES) {
    const city = byId.get(cityId)!;
    add({
      id,
      name,
      level: 'community',
      parentId: cityId,
      emirate: city.emirate,
      city: city.name,
      lat,
      lon,
      ppsf,
      rentYield,
      style,
      weight,
    });
  }
  for (const [id, name, cityId, lat, lon, ppsf, rentYield, style, weight] of ADDED_COMMUNITIES) {
    const city = byId.get(cityId)!;
    add({
      id,
      name,
      level: 'community',
      parentId: cityId,
      emirate: city.emirate,
      city: city.name,
      lat,
      lon,
      ppsf,
      rentYield,
      style,
      weight,
      added: true,
    });
  }
  for (const [id, name, communityId, factor] of BUILDINGS) {
    const c = byId.get(communityId)!;
    // Buildings sit a few hundred metres around their community's centre.
    const dLat = (((id * 37) % 19) - 9) / 2000;
    const dLon = (((id * 53) % 17) - 8) / 2000;
    add({
      id,
      name,
      level: 'building',
      parentId: communityId,
      emirate: c.emirate,
      city: c.city,
      lat: +(c.lat + dLat).toFixed(5),
      lon: +(c.lon + dLon).toFixed(5),
      ppsf: Math.round(c.ppsf * factor),
      rentYield: c.rentYield,
      style: 'towers',
      weight: 0,
    });
  }
  return areas;
}

export interface Geography {
  areas: readonly Area[];
  byId: ReadonlyMap<number, Area>;
  /** An area and everything inside it (a city's communities and their buildings). */
  within(id: number): ReadonlySet<number>;
  /** "Vida Residences Dubai Marina, Dubai Marina, Dubai". */
  fullName(id: number): string;
  /** The area's community (itself for a community; undefined for a city). */
  communityOf(id: number): Area | undefined;
  buildingsOf(communityId: number): readonly Area[];
}

export function createGeography(): Geography {
  const areas = build();
  const byId = new Map(areas.map((p) => [p.id, p]));
  const children = new Map<number, Area[]>();
  for (const p of areas) {
    if (p.parentId === undefined) continue;
    const list = children.get(p.parentId) ?? [];
    list.push(p);
    children.set(p.parentId, list);
  }
  const withinCache = new Map<number, Set<number>>();
  const within = (id: number): Set<number> => {
    const cached = withinCache.get(id);
    if (cached) return cached;
    const set = new Set<number>();
    if (byId.has(id)) {
      const stack = [id];
      while (stack.length > 0) {
        const cur = stack.pop()!;
        set.add(cur);
        for (const c of children.get(cur) ?? []) stack.push(c.id);
      }
    }
    withinCache.set(id, set);
    return set;
  };
  const fullName = (id: number): string => {
    const names: string[] = [];
    for (let p = byId.get(id); p; p = p.parentId === undefined ? undefined : byId.get(p.parentId)) names.push(p.name);
    return names.join(', ');
  };
  const communityOf = (id: number): Area | undefined => {
    const p = byId.get(id);
    if (!p || p.level === 'city') return undefined;
    return p.level === 'community' ? p : byId.get(p.parentId!);
  };
  return {
    areas,
    byId,
    within,
    fullName,
    communityOf,
    buildingsOf: (communityId) => (children.get(communityId) ?? []).filter((p) => p.level === 'building'),
  };
}
