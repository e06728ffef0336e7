// Buttons under alert messages (Details of the listing, the alert's newest results), made from stored state alone:
// the delivery thread renders them with no Bot. They are backed by the same versioned page rows as a search reply's.
import type { Query } from '../query/index.js';
import type { Button } from '../views/model.js';
import {
  DEFAULT_SURFACE,
  PAYLOAD_VERSION,
  firstPosition,
  type Area,
  type PageRow,
  type Position,
} from './button-payloads.js';
import { scopedState, type ButtonStateStore } from './types.js';

/** What the buttons need of an alert: its query, its area and its channel, by the alert's id. */
export type AlertLookup = (searchId: number) => Promise<{ query: Query; location: Area; channel: string } | undefined>;

export interface AlertButtons {
  details(searchId: number, propertyId: string): Promise<Button | undefined>;
  showSearch(searchId: number): Promise<Button | undefined>;
}

export function alertButtons(state: ButtonStateStore, find: AlertLookup): AlertButtons {
  const row = async (searchId: number, details: string[], next?: Position) => {
    const saved = await find(searchId);
    if (!saved) return undefined;
    const query: Query = { ...saved.query, params: { ...saved.query.params, sort: 'newest' } };
    // Bound to the alert's channel, as a search's buttons are to theirs.
    return scopedState(state, saved.channel).save('page', {
      v: PAYLOAD_VERSION,
      query,
      location: saved.location,
      surface: DEFAULT_SURFACE,
      details,
      ...(next ? { next } : {}),
    } satisfies PageRow);
  };
  return {
    details: async (searchId, propertyId) => {
      const token = await row(searchId, [propertyId]);
      return token ? { label: 'Details', action: 'details', token: `${token}.d0` } : undefined;
    },
    showSearch: async (searchId) => {
      const saved = await find(searchId);
      const token = saved && (await row(searchId, [], firstPosition(saved.query)));
      return token ? { label: 'Show the newest', action: 'page', token: `${token}.n` } : undefined;
    },
  };
}
