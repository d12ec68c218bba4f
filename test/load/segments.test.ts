// Execution segments (load/distributed/): k6's --execution-segment and
// --execution-segment-sequence read as exact fractions, k6-operator's even
// split, which arrivals each instance starts (every one once, each instance
// its share of every step), whether instances cover a run exactly, and the
// engine's phases scaled to a segment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arrivalSegment } from '../../load/distributed/arrivals.ts';
import { coverageProblems } from '../../load/distributed/coverage.ts';
import { evenSplit, formatSegment, parseFraction, parseSegment, parseSequence } from '../../load/distributed/segment.ts';
import { buildPhases } from '../../load/engine/phases.ts';
import { arrivalOffsets } from '../../load/engine/schedule.ts';
import { ownedArrivals } from '../../load/distributed/arrivals.ts';

test('segments and sequences read as k6 writes them: fractions, decimals, percentages', () => {
  assert.deepEqual(parseFraction('2/8'), { n: 1, d: 4 });
  assert.deepEqual(parseFraction('0.25'), { n: 1, d: 4 });
  assert.deepEqual(parseFraction('25%'), { n: 1, d: 4 });
  assert.equal(formatSegment(parseSegment('1/4:2/4')), '1/4:1/2');
  assert.equal(formatSegment(parseSegment('1/3')), '0:1/3');
  assert.equal(parseSequence('0,1/3,2/3,1').length, 4);
  assert.throws(() => parseSegment('1/2:1/4'), /needs 0 ≤ from < to ≤ 1/);
  assert.throws(() => parseSequence('0,1/2,1/3,1'), /increasing fractions from 0 to 1/);
  assert.throws(() => parseFraction('a quarter'), /not a fraction/);
});

test("evenSplit is k6-operator's: runner i of N gets (i-1)/N:i/N of 0,1/N,…,1", () => {
  assert.deepEqual(evenSplit(1), { sequence: '0,1', segments: ['0:1'] });
  assert.deepEqual(evenSplit(3), { sequence: '0,1/3,2/3,1', segments: ['0:1/3', '1/3:2/3', '2/3:1'] });
  assert.deepEqual(evenSplit(4).segments, ['0:1/4', '1/4:1/2', '1/2:3/4', '3/4:1']);
});

test('every arrival is started by exactly one instance, each instance its share of every stretch of arrivals', () => {
  for (const sequence of ['0,1/4,1/2,3/4,1', '0,1/3,1/2,1', '0,1/10,1']) {
    const points = sequence.split(',');
    const segments = points.slice(1).map((to, i) => arrivalSegment(`${points[i]}:${to}`, sequence));
    const owners = Array.from({ length: 600 }, (_, j) => segments.filter((s) => s.owns(j)).length);
    assert.ok(owners.every((n) => n === 1), `${sequence}: an arrival started by ${Math.max(...owners)} or none`);
    for (const s of segments) {
      for (const n of [60, 599]) {
        const started = Array.from({ length: n }, (_, j) => j).filter((j) => s.owns(j)).length;
        // Within one period of the sequence's denominator: ±1 per 60 arrivals here.
        assert.ok(Math.abs(started - s.share * n) <= s.share * 60 + 1, `${sequence} ${s.label}: ${started} of ${n}`);
      }
    }
  }
});

test('a segment starts its arrivals at their planned times, from a constant rate or a ramp', () => {
  const ramp = { executor: 'ramping-arrival-rate' as const, startRate: 0, stages: [{ target: 40, duration: '2s' }], preAllocatedVUs: 4 };
  const all = [...arrivalOffsets(ramp)];
  const { sequence, segments } = evenSplit(3);
  const parts = segments.map((s) => [...ownedArrivals(arrivalOffsets(ramp), arrivalSegment(s, sequence))]);
  assert.deepEqual([...parts.flat()].sort((a, b) => a - b), all);
  assert.deepEqual(parts.map((p) => p.length), [14, 13, 13]);
});

test('the instances must cover the run exactly once: overlaps and gaps are named', () => {
  const seg = (name: string, text: string) => ({ name, segment: parseSegment(text) });
  assert.deepEqual(coverageProblems([seg('a', '0:1/2'), seg('b', '1/2:1')]), []);
  assert.deepEqual(coverageProblems([seg('b', '1/2:1'), seg('a', '0:1/2'), seg('c', '1/2:1')]), ['b (1/2:1) and c (1/2:1) overlap: their arrivals would be counted twice']);
  assert.deepEqual(coverageProblems([seg('a', '0:1/4'), seg('c', '1/2:3/4')]), ['segment 1/4:1/2 is missing: no instance ran it', 'segment 3/4:1 is missing: no instance ran it']);
  assert.deepEqual(coverageProblems([seg('a', '0:2/3'), seg('b', '1/2:1')]), ['a (0:2/3) and b (1/2:1) overlap: their arrivals would be counted twice']);
});

test("an instance's phases offer its share of the rate and keep its share of maxVUs", () => {
  const plan = { 'step-01': { executor: 'constant-arrival-rate' as const, rate: 300, duration: '1s', preAllocatedVUs: 10, maxVUs: 170 } };
  const [whole] = buildPhases(plan);
  const [quarter] = buildPhases(plan, 0, arrivalSegment('1/4:1/2', '0,1/4,1/2,3/4,1'));
  assert.deepEqual([whole!.recorder.offeredRps, whole!.maxVUs], [300, 170]);
  assert.deepEqual([quarter!.recorder.offeredRps, quarter!.maxVUs, [...quarter!.arrivals()].length], [75, 43, 75]);
});
