// The shared bench's own arithmetic (bench/shared-measures.ts): the sizes it is asked for, a process's CPU read from
// /proc, and the JSON line a script reads. The bench itself is timed by `BENCH=shared npm run bench`, never here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  cpuPerThousand,
  parseProcStat,
  sharedJsonLine,
  sharedSizes,
  treeTicks,
  type RunMeasures,
} from '../../bench/shared-measures.js';

describe('the shared bench sizes from the environment', () => {
  it('defaults to 100,000 searches over 10,000 queries, a channel for every 250 searches', () => {
    expect(sharedSizes({})).toEqual({ searches: 100_000, distinct: 10_000, channels: 400 });
    expect(sharedSizes({ BENCH_SHARED_SEARCHES: '1000000' })).toEqual({
      searches: 1_000_000,
      distinct: 10_000,
      channels: 4_000,
    });
  });

  it('reads numbers written with separators, and all three variables', () => {
    expect(
      sharedSizes({
        BENCH_SHARED_SEARCHES: '1_000_000',
        BENCH_SHARED_DISTINCT: '5,000',
        BENCH_SHARED_CHANNELS: ' 800 ',
      }),
    ).toEqual({ searches: 1_000_000, distinct: 5_000, channels: 800 });
  });

  it.each([
    ['BENCH_SHARED_SEARCHES', 'a million'],
    ['BENCH_SHARED_SEARCHES', '-5'],
    ['BENCH_SHARED_DISTINCT', '0'],
    ['BENCH_SHARED_CHANNELS', '2.5'],
    ['BENCH_SHARED_SEARCHES', '1e6'],
  ])('says which variable is wrong and what it got: %s=%s', (name, value) => {
    expect(() => sharedSizes({ [name]: value })).toThrow(
      new RegExp(`^${name} must be a whole number of at least 1.*\\(got "${value.replace(/[.*+]/g, '\\$&')}"\\)$`),
    );
  });

  it('refuses sizes it cannot lay out, saying what to change', () => {
    expect(() => sharedSizes({ BENCH_SHARED_SEARCHES: '100', BENCH_SHARED_DISTINCT: '200' })).toThrow(
      /BENCH_SHARED_DISTINCT \(200\) cannot be more than BENCH_SHARED_SEARCHES \(100\)/,
    );
    // 100,000 searches in 5 channels: 20,000 a channel over 10,000 queries would save one twice in a channel.
    expect(() => sharedSizes({ BENCH_SHARED_CHANNELS: '5' })).toThrow(/raise BENCH_SHARED_CHANNELS to at least 10$/);
  });
});

describe('a process CPU read from /proc/<pid>/stat', () => {
  // proc(5): pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime ...
  const line = (comm: string, utime: number, stime: number, cutime: number, cstime: number, ppid = 1) =>
    `4242 (${comm}) S ${ppid} 4242 4242 0 -1 4194560 900 0 0 0 ${utime} ${stime} ${cutime} ${cstime} 20 0 1 0 123 456789 100`;

  it('reads its parent and its own and its exited children CPU ticks', () => {
    expect(parseProcStat(line('postgres', 120, 30, 7, 3, 99))).toEqual({
      pid: 4242,
      comm: 'postgres',
      ppid: 99,
      utime: 120,
      stime: 30,
      cutime: 7,
      cstime: 3,
    });
  });

  it('reads a command holding spaces and parentheses, as a backend names itself', () => {
    const stat = parseProcStat(line('postgres: manzil postgres 127.0.0.1(5432) idle', 5, 6, 0, 1));
    expect(stat.comm).toBe('postgres: manzil postgres 127.0.0.1(5432) idle');
    expect([stat.utime, stat.stime, stat.cutime, stat.cstime]).toEqual([5, 6, 0, 1]);
  });

  it('reads this very process from /proc', () => {
    const stat = parseProcStat(readFileSync('/proc/self/stat', 'utf8'));
    expect(stat.pid).toBe(process.pid);
    expect(stat.ppid).toBe(process.ppid);
    expect(stat.utime + stat.stime).toBeGreaterThan(0);
  });

  it('refuses what is not a stat line', () => {
    expect(() => parseProcStat('no such thing')).toThrow(/not a \/proc\/<pid>\/stat line/);
    expect(() => parseProcStat('1 (x) S')).toThrow(/field 4 is not a number/);
  });

  it('adds a tree up: each process its own time and its exited children', () => {
    const postmaster = parseProcStat(line('postgres', 10, 5, 100, 20));
    const backends = [parseProcStat(line('postgres: a', 30, 4, 0, 0)), parseProcStat(line('postgres: b', 1, 1, 0, 0))];
    expect(treeTicks([postmaster, ...backends])).toBe(10 + 5 + 100 + 20 + 30 + 4 + 1 + 1);
  });
});

describe('the JSON line of a shared run', () => {
  const sizes = { searches: 1_000_000, distinct: 10_000, channels: 4_000 };
  const MB = 1024 * 1024;
  const quiet: RunMeasures = {
    ms: 50_000,
    calls: 10_000,
    statements: 60_000,
    cpuMs: { instances: [10_000, 12_000, 8_000], postgres: 40_000, sandbox: 5_000 },
    peakRss: [250 * MB, 200 * MB, 210 * MB],
    outboxRows: 0,
  };
  const busy: RunMeasures = { ...quiet, ms: 80_000, statements: 90_000, outboxRows: 16_000 };

  it('holds the fields the issue names, in its order, then the detail', () => {
    const json = sharedJsonLine({
      sizes,
      instances: 3,
      floorMs: 41_667,
      quiet,
      busy,
      maxRss: [260 * MB, 205 * MB, 215 * MB],
    });
    expect(Object.keys(json).slice(0, 11)).toEqual([
      'bench',
      'searches',
      'distinct',
      'instances',
      'run_s',
      'floor_s',
      'calls',
      'peak_rss_mb',
      'round_trips_per_query',
      'cpu_s_per_1000_queries',
      'busy_run_s',
    ]);
    expect(json).toMatchObject({
      bench: 'shared',
      searches: 1_000_000,
      distinct: 10_000,
      instances: 3,
      run_s: 50,
      floor_s: 41.7,
      calls: 10_000,
      peak_rss_mb: [260, 205, 215],
      round_trips_per_query: 6,
      // (10 + 12 + 8 + 40 + 5) s over 10 thousand queries
      cpu_s_per_1000_queries: 7.5,
      busy_run_s: 80,
      run_over_floor: 1.2,
      cpu_s_per_1000_queries_by_process: { instances: [1, 1.2, 0.8], postgres: 4, sandbox: 0.5, total: 7.5 },
      busy_round_trips_per_query: 9,
      busy_outbox_rows_per_s: 200,
    });
    // One line a script reads back as it was.
    const line = JSON.stringify(json);
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toEqual(json);
  });

  it('a run that did not finish has null figures and says why', () => {
    const json = sharedJsonLine({
      sizes,
      instances: 3,
      floorMs: 41_667,
      quiet: null,
      busy: null,
      maxRss: [1_200 * MB, 210 * MB, 200 * MB],
      error: 'quiet run: run not finished after 600 s',
    });
    expect(json).toMatchObject({
      run_s: null,
      calls: null,
      round_trips_per_query: null,
      cpu_s_per_1000_queries: null,
      busy_run_s: null,
      peak_rss_mb: [1_200, 210, 200],
      error: 'quiet run: run not finished after 600 s',
    });
  });

  it('CPU per 1,000 queries is seconds over thousands of queries', () => {
    expect(cpuPerThousand(quiet, 10_000)).toEqual({
      instances: [1, 1.2, 0.8],
      postgres: 4,
      sandbox: 0.5,
      total: 7.5,
    });
  });
});
