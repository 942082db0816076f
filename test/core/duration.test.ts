import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationInWords } from '../../src/core/duration.ts';

describe('durations in words', () => {
  it('says a wait as a person would', () => {
    expect(durationInWords(86_390)).toBe('23 hours 59 minutes');
    expect(durationInWords(1)).toBe('1 second');
    expect(durationInWords(0)).toBe('1 second');
    expect(durationInWords(42)).toBe('42 seconds');
    expect(durationInWords(90)).toBe('2 minutes');
    expect(durationInWords(900)).toBe('15 minutes');
    expect(durationInWords(3600)).toBe('1 hour');
    expect(durationInWords(3660)).toBe('1 hour 1 minute');
    expect(durationInWords(3 * 86_400 + 7200)).toBe('3 days 2 hours');
  });

  it('property: never a bare count of seconds above 90, and never shorter than the wait by a minute or more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 * 86_400 }), (seconds) => {
        const words = durationInWords(seconds);
        const unit = { second: 1, minute: 60, hour: 3600, day: 86_400 };
        const said = [...words.matchAll(/(\d+) (second|minute|hour|day)s?/g)].reduce((sum, m) => sum + Number(m[1]) * unit[m[2] as keyof typeof unit], 0);
        return (seconds < 90 || !/seconds?$/.test(words)) && said > seconds - (seconds < 2 * 86_400 ? 60 : 3600);
      }),
    );
  });
});
