import type { GeographyLevel } from '../../core/dataset.ts';
import { closestNames } from '../../core/geography/matching.ts';
import type { UseCaseDeps } from '../deps.ts';
import { searchGeography } from '../geography.ts';
import type { SearchQuery } from '../../ports/pool-release.ts';

type SearchLevel = SearchQuery['level'];

/**
 * The query builder's words: its one place separator, and the API's error sentences retold with
 * the form's labels (the API's name for a field means nothing to someone filling in the form),
 * with "did you mean" for a place the release does not know.
 */

/** The one separator between places: the hint, the parser and the suggestions all use it (a line break works too). */
export const PLACE_SEPARATOR = ';';

/** The places typed in the builder, in order: split on ";" or a line break only (names such as "Melbourne (C)" hold commas elsewhere). */
export function splitPlaces(text: string): string[] {
  return text
    .split(/[;\n]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** An example for the hint that the level really takes (the demo and the full release both hold them). */
export const PLACE_EXAMPLES: Readonly<Record<GeographyLevel, string>> = {
  suburb: 'Richmond (VIC); Fitzroy',
  postcode: '3121; 3065',
  sa2: 'Hobart; 601021004',
  lga: 'Yarra; Brisbane',
  state: 'VIC; NSW',
  australia: 'Australia',
};

const LABELS: readonly (readonly [RegExp, string])[] = [
  [/ ?GET \/geography\/search finds identifiers\./g, ' Start typing in “Places” to see the names this release knows.'],
  [/\bn_observations \((\d+)\)/g, '“Records per place” ($1)'],
  [/\(n_observations counts dwellings\)/g, '(“Records per place” then counts dwellings)'],
  [/\bn_observations\b/g, '“Records per place”'],
  [/\bin geography_selections\b/g, 'in “Places”'],
  [/\bgeography_selections\b/g, '“Places”'],
  [/\bat geography_level "(\w+)"/g, 'at the geography level “$1”'],
  [/\bgeography_level\b/g, '“Geography level”'],
  [/\bset dataset_type to "(\w+)"/g, 'choose “$1” under “Dataset”'],
  [/\bdataset_type\b/g, '“Dataset”'],
  [/\buse output_format "(\w+)" or "(\w+)"/g, 'choose “$1” or “$2” under “File format”'],
  [/\boutput_format\b/g, '“File format”'],
  [/\blinked_records "(\w+)"/g, '“Linked records: $1”'],
  [/, or leave linked_records out\b/g, ', or choose “none” under “Linked records”'],
  [/\blinked_records\b/g, '“Linked records”'],
  [/\binclude_geography\b/g, '“Geography columns”'],
  [/ \(small_suburb_flag = true\)/g, ''],
  [/\bone execute\b/g, 'one query'],
  [/\bselections\b/g, 'places'],
  [/\bselection\b/g, 'place'],
  // The sandbox caps (app/sandbox-caps.ts), as test mode.
  [
    /Sandbox \(spq_test_\) keys get at most (\d+) records per (place|query)( \(a household sample counts its dwellings, families and persons\))?; this query would deliver (\d+)\. (Ask for fewer|Use fewer places or records), or (use )?a live key\./g,
    'Test mode draws at most $1 records per $2$3; this query would draw $4. $5, or switch test mode off.',
  ],
  [/Sandbox \(spq_test_\) keys run at most (\d+) queries per account in 24 hours\. Retry after ([^,]+), or use a live key\./g, 'Test mode runs at most $1 queries a day. Try again in $2, or switch test mode off.'],
];

/** An API error sentence in the builder's words. */
export function inFormWords(detail: string): string {
  return LABELS.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), detail);
}

const UNKNOWN = /^Unknown (suburb|postcode|SA2|LGA|state) "([^"]*)" at geography_level "(\w+)"\.(?: Did you mean ([^?]*)\?)?/;
const MAX_SUGGESTIONS = 3;

/** A place's name without its state qualifier: "Richmond (VIC)" → "Richmond". */
const bareName = (id: string): string => id.replace(/\s*\([^()]*\)$/, '');

/**
 * Places the release knows that look like `input`, by the geography search (the same the API's
 * GET /geography/search and the builder's suggestions use): what it finds for the whole input,
 * else the closest spellings among the names that start like it.
 */
export function placesLike(deps: Pick<UseCaseDeps, 'pools'>, level: SearchLevel, input: string): string[] {
  const label = (r: ReturnType<typeof searchGeography>['results'][number]) => (level === 'postcode' ? r.postcode : level === 'lga' ? r.lga : level === 'state' ? r.state : r.suburb_id);
  const direct = [...new Set(searchGeography(deps, { query: input, level, limit: 10 }).results.map(label))];
  if (direct.length > 0) return direct.slice(0, MAX_SUGGESTIONS);
  const head = bareName(input).trim().slice(0, 3);
  if (head.length < 2) return [];
  const nearby = [...new Set(searchGeography(deps, { query: head, level, limit: 200 }).results.map(label))];
  const names = closestNames(bareName(input), nearby.map(bareName), MAX_SUGGESTIONS);
  return nearby.filter((id) => names.includes(bareName(id))).slice(0, MAX_SUGGESTIONS);
}

/**
 * The error of a previewed or run query in the form's words; an unknown place gets the places
 * that look like it, and a postcode typed at the suburb level gets its suburbs.
 */
export function builderError(deps: Pick<UseCaseDeps, 'pools'>, detail: string): string {
  const unknown = UNKNOWN.exec(detail);
  if (unknown === null) return inFormWords(detail);
  const [, word, input = '', levelText, apiSuggestions] = unknown;
  const level = levelText as GeographyLevel;
  const separatorHint = input.includes(',') ? ` Separate places with “${PLACE_SEPARATOR}”, not “,”.` : '';
  if (level === 'suburb' && /^\d{4}$/.test(input.trim())) {
    const suburbs = placesLike(deps, 'postcode', input.trim()).length > 0 ? [...new Set(searchGeography(deps, { query: input.trim(), level: 'postcode', limit: 10 }).results.map((r) => r.suburb_id))] : [];
    return `“${input}” is a postcode, not a suburb: choose “postcode” as the geography level${suburbs.length > 0 ? `, or name its suburbs: ${suburbs.join(`${PLACE_SEPARATOR} `)}` : ''}.`;
  }
  // The API's own suggestions (closest spellings) when it has some, else the geography search's.
  const suggestions =
    apiSuggestions !== undefined
      ? [...apiSuggestions.matchAll(/"([^"]*)"/g)].map((m) => m[1]!)
      : level === 'australia'
        ? ['Australia']
        : placesLike(deps, level, input.split(',')[0]!.trim());
  const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `“${s}”`).join(' or ')}?` : ' Start typing in “Places” to see the names this release knows.';
  return `This release has no ${word} “${input}”.${separatorHint}${hint}`;
}
