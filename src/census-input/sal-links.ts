import { STATE_BY_ABS_CODE, type StateAbbr } from '../census-names.ts';
import { lgaBaseName, normaliseName, parseAbsName, suburbIdentifiers } from './abs-names.ts';
import { byShare, matchSuburbs, normalised, sharesThrough, type NamedSuburb, type Share } from './correspondence.ts';
import type { SuburbGeography } from '../synthesis/census/inputs.ts';
import type { Suburbs2016 } from './correspondences-2016.ts';
import { realLgas, type RealArea } from './asgs-reference.ts';
import { gccsaOfSa2 } from './gccsa-reference.ts';

/** What the 2016 correspondences gave 2021's suburbs, and every line the build report must carry about it. */
export interface SalLinks {
  readonly suburbs: SuburbGeography[];
  /** One line per thing an operator should know (match rate, what was left out and why, areas the pack lacks). */
  readonly notes: string[];
  /** 2021 suburbs not built, each with its reason. */
  readonly leftOut: { readonly area: string; readonly reason: string }[];
}

const stateOfCode = (digits: string): StateAbbr | undefined => STATE_BY_ABS_CODE[digits[0] ?? ''];

/**
 * 2021's suburbs linked to their SA2s, postcodes and LGAs through the 2016 correspondences:
 * each suburb matched to the 2016 suburb (SSC) of its name and state; its SA2 shares from
 * SSC → SA2 (a 2016 SA2 the 2021 pack does not have, split or recoded in 2021, is counted and
 * its share left to the postcodes), its postcode and LGA shares through the SA1s
 * (SA1 → SSC with SA1 → POA and SA1 → LGA 2018; an LGA 2018 code 2021 lacks is matched to the
 * 2021 LGA of its name in its state). Unmatched and ambiguous suburbs are left out, each with its
 * reason, never guessed.
 */
export function linkSuburbs2016(
  sals: readonly RealArea[],
  old: Suburbs2016,
  packs: { readonly sa2?: ReadonlySet<string>; readonly poa?: ReadonlySet<string> },
): SalLinks {
  const notes: string[] = [];
  const leftOut: { area: string; reason: string }[] = [];
  const olds: NamedSuburb[] = [];
  for (const [code, absName] of old.names) {
    const state = stateOfCode(code);
    if (state && !/(?:9494|9797)$/.test(code)) olds.push({ code, absName, state });
  }
  const match = matchSuburbs(sals.map((s) => ({ code: s.code, absName: s.absName, state: s.state })), olds);
  const how = { exact: 0, name: 0, qualifier: 0 };
  for (const m of match.matched.values()) how[m.how]++;
  const pct = (n: number) => `${((100 * n) / Math.max(1, sals.length)).toFixed(1)}%`;
  notes.push(
    `suburbs: ${match.matched.size} of ${sals.length} 2021 suburbs (${pct(match.matched.size)}) matched to a 2016 suburb of their state (${how.exact} by the ABS name exactly, ${how.name} by the name without its qualifier, ${how.qualifier} by the area in the qualifier); ${match.unmatched.length} unmatched and ${match.ambiguous.length} ambiguous left out (listed in report.json; the 2021 ASGS allocation files build them)`,
  );
  for (const u of match.unmatched) leftOut.push({ area: `${u.absName} (${u.code})`, reason: `no 2016 suburb of this name in ${u.state}: no correspondence to link it to its postcodes, LGA and SA2` });
  for (const a of match.ambiguous) {
    const reason = `the name matches ${a.candidates.length} 2016 suburbs (${a.candidates.map((c) => `${c.absName} SSC${c.code}`).join(', ')}) and nothing tells them apart: not guessed`;
    leftOut.push({ area: `${a.suburb.absName} (${a.suburb.code})`, reason });
    notes.push(`suburb ${a.suburb.absName} (${a.suburb.code}): ${reason}`);
  }

  const postcodes = sharesThrough(old.sa1Ssc, old.sa1Poa);
  const lgas = sharesThrough(old.sa1Ssc, old.sa1Lga);
  // Suburbs no SA1 links (nobody lived there in 2016): postcodes from their localities, LGAs through their SA2s.
  const lgasThroughSa2 = sharesThrough(invert(old.sa2s), old.sa2Lga);
  let unpeopled = 0;
  const lgaOf = lga2021Resolver(old.lgaNames, notes);
  let splitSa2Suburbs = 0;
  const splitSa2s = new Set<string>();
  const missingPostcodes = new Set<string>();
  const linked: Linked[] = [];
  for (const sal of sals) {
    const ssc = match.matched.get(sal.code)?.code;
    if (ssc === undefined) continue;
    const sa2sAll = old.sa2s.get(ssc) ?? [];
    const sa2s = packs.sa2 ? sa2sAll.filter((s) => packs.sa2!.has(s.code)) : [...sa2sAll];
    if (sa2s.length < sa2sAll.length) {
      splitSa2Suburbs++;
      for (const s of sa2sAll) if (!sa2s.includes(s)) splitSa2s.add(s.code);
    }
    const viaSa1 = postcodes.has(ssc);
    if (!viaSa1) unpeopled++;
    const poas = ((viaSa1 ? postcodes.get(ssc) : old.localityPostcodes.get(ssc)) ?? []).map((p) => ({ code: p.code.padStart(4, '0'), ratio: p.ratio }));
    for (const p of poas) if (packs.poa && !packs.poa.has(p.code)) missingPostcodes.add(p.code);
    const lgaShares = ((viaSa1 ? lgas.get(ssc) : lgasThroughSa2.get(ssc)) ?? []).flatMap((l) => {
      const lga = lgaOf(l.code, sal.state);
      return lga ? [{ ...lga, ratio: l.ratio }] : [];
    });
    if (poas.length === 0 || lgaShares.length === 0) {
      leftOut.push({ area: `${sal.absName} (${sal.code})`, reason: `its 2016 suburb SSC${ssc} has no ${poas.length === 0 ? 'postcode' : 'LGA'} in the correspondences` });
      continue;
    }
    // The GCCSA from the SA4 of the suburb's main 2016 SA2 (a split SA2 stays in its SA4).
    linked.push({ sal, sa2s, postcodes: normalised(poas), lgas: mergeLgas(lgaShares), gccsa: gccsaOfSa2([...sa2sAll].sort(byShare)[0]?.code, sal.state) });
  }
  if (unpeopled > 0) notes.push(`suburbs: ${unpeopled} had no people in 2016 (no SA1 of the correspondences lies in them): their postcodes are their localities' (CG_LOC_2018_SSC_2016), their LGAs those of their SA2s`);
  if (splitSa2Suburbs > 0)
    notes.push(
      `SA2s: ${splitSa2s.size} SA2s of 2016 that suburbs lie in have no 2021 SA2 of the same code in the SA2 pack (split or recoded in 2021: ${[...splitSa2s].slice(0, 8).join(', ')}${splitSa2s.size > 8 ? ', …' : ''}); ${splitSa2Suburbs} suburbs take that share of their tables from their postcodes instead`,
    );
  if (missingPostcodes.size > 0)
    notes.push(`postcodes: ${missingPostcodes.size} postcodes of the 2016 correspondences are not in the POA pack (${[...missingPostcodes].slice(0, 8).join(', ')}${missingPostcodes.size > 8 ? ', …' : ''}); suburbs keep them as links, their tables come from the others`);
  return { suburbs: suburbsOf(linked), notes, leftOut };
}

/** SSC → SA2 shares turned into SA2 → SSC memberships (each SSC's whole share), to go through SA2s as through SA1s. */
function invert(sscSa2: ReadonlyMap<string, readonly Share[]>): Map<string, Share[]> {
  const out = new Map<string, Share[]>();
  for (const [ssc, sa2s] of sscSa2) for (const s of sa2s) out.set(s.code, [...(out.get(s.code) ?? []), { code: ssc, ratio: s.ratio }]);
  return out;
}

/** LGA 2018 → 2021 by code, else by name in the state; what neither finds is noted once. */
function lga2021Resolver(names2018: ReadonlyMap<string, string>, notes: string[]): (code2018: string, state: StateAbbr) => { code: string; name: string } | undefined {
  const byCode = new Map(realLgas().map((l) => [l.code, l]));
  const byName = new Map(realLgas().map((l) => [`${l.state}|${normaliseName(l.name)}`, l]));
  const noted = new Set<string>();
  return (code2018, state) => {
    const code = `LGA${code2018}`;
    const name2018 = lgaBaseName(names2018.get(code2018) ?? '');
    const lga = byCode.get(code) ?? byName.get(`${state}|${normaliseName(name2018)}`);
    if (lga) return { code: lga.code, name: lga.name };
    if (!/(?:9499|9799)$/.test(code2018) && !noted.has(code2018)) {
      noted.add(code2018);
      notes.push(`LGAs: LGA 2018 ${code2018} (${names2018.get(code2018)}) has no 2021 LGA of that code or name in ${state}; suburbs' shares in it go to their other LGAs`);
    }
    return undefined;
  };
}

/** Two 2018 LGAs that became one in 2021 add up. */
function mergeLgas(shares: readonly { code: string; name: string; ratio: number }[]): { code: string; name: string; ratio: number }[] {
  const names = new Map(shares.map((s) => [s.code, s.name]));
  const sums = new Map<string, number>();
  for (const s of shares) sums.set(s.code, (sums.get(s.code) ?? 0) + s.ratio);
  return normalised([...sums].map(([code, ratio]) => ({ code, ratio }))).map((s) => ({ code: s.code, name: names.get(s.code)!, ratio: s.ratio }));
}

interface Linked {
  readonly sal: RealArea;
  readonly sa2s: Share[];
  readonly postcodes: Share[];
  readonly lgas: { code: string; name: string; ratio: number }[];
  readonly gccsa: string;
}

function suburbsOf(linked: readonly Linked[]): SuburbGeography[] {
  const ids = suburbIdentifiers(linked.map(({ sal, lgas }) => ({ key: sal.code, name: sal.name, state: sal.state, area: parseAbsName(sal.absName).area ?? lgas[0]!.name })));
  return linked.map(({ sal, sa2s, postcodes, lgas, gccsa }): SuburbGeography => {
    // Not rescaled: the share of a split 2016 SA2 stays missing here, and the postcodes carry it (tables-from-parents).
    const sa2 = [...sa2s].sort(byShare);
    return {
      level: 'sal',
      salCode: sal.code,
      absName: sal.absName,
      name: sal.name,
      suburbId: ids.get(sal.code)!,
      state: sal.state,
      postcodes,
      lgas,
      sa2s: sa2,
      postcode: postcodes[0]!.code,
      lgaCode: lgas[0]!.code,
      lgaName: lgas[0]!.name,
      gccsa,
      remoteness: undefined,
      areaSqkm: sal.areaSqkm,
    };
  });
}
