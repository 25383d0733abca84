import { describe, expect, it } from 'vitest';
import { kurusToTl, tlToKurus } from './money';

describe('tlToKurus', () => {
  it.each([
    [0, 0],
    [0.01, 1],
    [0.1, 10],
    [0.29, 29],
    [0.57, 57],
    [1, 100],
    [1.1, 110],
    [12.5, 1250],
    [19.99, 1999],
    [20, 2000],
    [1234.56, 123456],
    [9999999.99, 999999999],
    [100000000000.99, 10000000000099],
  ])('turns %s TL into %s kuruş', (tl, kurus) => {
    expect(tlToKurus(tl)).toBe(kurus);
  });

  it.each([
    ['a third of a kuruş', 1.005],
    ['a tenth of a kuruş', 0.001],
    ['three decimals on a large amount', 1000000.001],
    ['three decimals on a huge amount', 10000000000.001],
    ['a negative amount', -1],
    ['a negative cent', -0.01],
    ['negative zero', -0],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['minus Infinity', Number.NEGATIVE_INFINITY],
    ['1e309 as JSON parses it', JSON.parse('1e309')],
    ['an amount beyond safe integers', 1e15],
    ['float noise beyond two decimals', 0.1 + 0.2],
    ['a tiny amount written with an exponent', 1e-7],
    ['a numeric string', '12.5'],
    ['an empty string', ''],
    ['null', null],
    ['undefined', undefined],
    ['a boolean', true],
    ['an object', { valueOf: () => 5 }],
    ['an array', [5]],
    ['a bigint', 5n],
  ])('refuses %s', (_label, value) => {
    expect(tlToKurus(value)).toBeNull();
  });

  it('accepts every two-decimal amount as typed, and only those', () => {
    for (let lira = 0; lira < 1000; lira += 7) {
      for (let cents = 0; cents < 100; cents++) {
        const typed = Number(`${lira}.${String(cents).padStart(2, '0')}`);
        expect(tlToKurus(typed)).toBe(lira * 100 + cents);
        expect(tlToKurus(Number(`${lira}.${String(cents).padStart(2, '0')}1`))).toBeNull();
      }
    }
  });

  it('round-trips with kurusToTl for any kuruş amount', () => {
    for (const kurus of [0, 1, 29, 1250, 123456789, 987654321012, 10000000000099]) {
      expect(tlToKurus(kurusToTl(kurus))).toBe(kurus);
    }
  });
});

describe('kurusToTl', () => {
  it('gives the lira number the API speaks', () => {
    expect(kurusToTl(1250)).toBe(12.5);
    expect(kurusToTl(29)).toBe(0.29);
    expect(kurusToTl(0)).toBe(0);
  });
});
