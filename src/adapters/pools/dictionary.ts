/**
 * What a file says of its columns: the dictionary shipped with every file (inside a parquet's
 * metadata and an xlsx's sheets; beside a csv, as its companion file), the meaning of each column
 * in file order, and the dictionary as the rows of an xlsx sheet.
 */
import { HIERARCHICAL_COLUMNS, type DatasetType } from '../../core/dataset.ts';
import { COMPANION_FILES } from '../../core/formats.ts';
import { fittedToText } from '../../core/provenance.ts';
import { variableByCode, type Measurement } from '../../synthesis/census/variables.ts';
import type { CodebookEntry } from '../../ports/pool-release.ts';
import type { Catalog, CatalogVariable } from './catalog.ts';
import { hasSelectionColumn, selectionLabels, type ExportPart } from './file-shape.ts';
import { ID_COLUMNS } from './records-sql.ts';
import { coarseColumnName, missingCodesOfVariable, missingColumnName, type VariableFileColumn } from './variable-columns.ts';

/** Where an export writes a dictionary beside its file (a format with no place for it inside): `<destPath>.dictionary.json`. */
export const dictionaryPathOf = (destPath: string): string => `${destPath}.${COMPANION_FILES.dictionary.suffix}.${COMPANION_FILES.dictionary.extension}`;

/**
 * The dictionary shipped with every file: variable code → description and labels, ABS order.
 * Given the file's columns, it also says which are coarse: a variable with a CODE_coarse
 * companion names it and the suburbs whose records are empty in CODE (variable-columns.ts); and
 * which hold the missing-value codes (CODE_missing, `missing_column`). A joined file's linked
 * variables get the same entry as the record's own.
 */
export function dictionaryOf(catalog: Catalog, dataset: DatasetType, fileColumns?: readonly VariableFileColumn[], parts?: readonly ExportPart[], hierarchical = false) {
  return {
    version: catalog.version,
    fitted_to: fittedToText(catalog.fittedTo ?? 'demo', catalog.population),
    ...(catalog.population ? { population_estimate: catalog.population } : {}),
    dataset_type: dataset,
    ...(fileColumns ? { columns: describeColumns(catalog, dataset, fileColumns, parts ?? [], hierarchical) } : {}),
    ...(fileColumns?.some((c) => c.source.link) ? { linked_variables: linkedVariables(catalog, fileColumns) } : {}),
    ...(parts && hasSelectionColumn(parts)
      ? { selection_column: { description: 'The geography selection (as written in the request) that each record answers; a record is drawn once even where selections overlap.', values: selectionLabels(parts) } }
      : {}),
    variables: catalog.variables[dataset].map((v) => ({ code: v.code, ...variableEntry(catalog, v, v.code, fileColumns) })),
  };
}

/**
 * What the dictionary says of a variable's column `name` (the record's own, or a linked record's
 * family_*, dwelling_*): its categories (the full ABS list, missing codes last), which are
 * missing-value codes, and, given the file's columns, its coarse and missing companions.
 */
function variableEntry(catalog: Catalog, v: CatalogVariable, name: string, fileColumns: readonly VariableFileColumn[] | undefined) {
  const companion = fileColumns?.find((c) => c.name === coarseColumnName(name));
  const fine = fileColumns?.find((c) => c.name === name);
  const missingColumn = fileColumns?.find((c) => c.name === missingColumnName(name));
  const emptyIn = fine?.nullFor ? catalog.suburbs.flatMap((s, o) => (fine.nullFor![o] ? [s.suburbId] : [])) : [];
  // The codebook's entry, then what this file's columns add (in the dictionary's field order).
  const { description, measurement, categories, missing, coarse_categories: coarseCategories } = codebookEntryOf(v);
  return {
    description,
    measurement,
    categories,
    missing,
    ...(missingColumn ? { missing_column: missingColumn.name } : {}),
    ...(coarseCategories ? { coarse_categories: coarseCategories } : {}),
    ...(companion
      ? {
          coarse_column: companion.name,
          coarse_note: `${name} is empty for records of small suburbs, whose records carry only coarse categories; ${companion.name} holds the coarse category of every record.`,
          empty_in_suburbs: emptyIn,
        }
      : {}),
  };
}

/** A variable's measurement level: the catalog's, or (releases before measurement levels) the code's catalogue's. */
export const measurementOf = (v: CatalogVariable): Measurement => v.measurement ?? variableByCode(v.code).measurement;

/** A variable as the free codebook gives it (the same categories and missing codes a file's dictionary carries). */
export function codebookEntryOf(v: CatalogVariable): CodebookEntry {
  return {
    code: v.code,
    description: v.description,
    measurement: measurementOf(v),
    categories: v.categories,
    // Missing-value codes, so readers order only the substantive levels (fine and coarse labels).
    missing: missingCodesOfVariable(v),
    ...(v.coarseCategories ? { coarse_categories: v.coarseCategories } : {}),
  };
}

const ID_MEANING: Readonly<Record<string, string>> = {
  person_id: 'The person record (P + 9 digits); text, keep the leading zeros',
  family_id: "The record's family (F + 9 digits), empty for persons in no family; joins the families file",
  dwelling_id: "The record's dwelling (D + 9 digits); joins the dwellings file",
};
const GEOGRAPHY_MEANING: Readonly<Record<string, string>> = {
  suburb_code:
    "The area whose pools the record comes from: ABS 2021 SAL code (SAL + 5 digits) for a suburb; the SA2's 9 digits, POA + 4 digits or LGA + 5 digits where the release fits SA2s, postal areas or LGAs to their own tables",
  suburb: 'The suburb as spq identifies it (docs/spec/decisions.md, "Geography identifiers"); empty for records of SA2, postal-area and LGA pools',
  postcode: "The suburb's main postcode, or the postal area (4 digits, text: keep the leading zero, e.g. 0800); empty for LGA pools",
  lga: "The suburb's main Local Government Area (the one holding most of its people), or the LGA; for postal-area and SA2 pools the LGA holding most of their people, from the ABS correspondences (empty where none places them)",
  gccsa: "The suburb's Greater Capital City Statistical Area; for postal-area and SA2 pools the one holding most of their people; empty for LGA pools",
  state: 'State or territory abbreviation',
  sa2_code:
    "Extension: the record's ABS 2021 Statistical Area Level 2 (9 digits, text): for SA2 pools the SA2; for suburbs, postal-area and LGA pools the SA2 holding most of their people, from the ABS correspondences (empty where none places them, and in releases built before 2026-12-07)",
  sa2_name: "Extension: that SA2's name as the ABS writes it (unique in Australia); empty where no SA2 is known (a release built before 2026-12-07 names a suburb's SA2 without its code)",
};

const LINKED_OF: Readonly<Record<string, string>> = { family_row: "the record's family", dwelling_row: "the record's dwelling" };

/** Every column of the file, in file order, with what it holds (ids, selection, geography, variables, linked records' variables, coarse companions). */
export function describeColumns(catalog: Catalog, dataset: DatasetType, fileColumns: readonly VariableFileColumn[], parts: readonly ExportPart[], hierarchical: boolean) {
  return [
    ...ID_COLUMNS[dataset].map((name) => ({ name, kind: 'id', description: ID_MEANING[name]! })),
    ...(hasSelectionColumn(parts) ? [{ name: 'selection', kind: 'selection', description: 'The geography selection (as written in the request) this record answers' }] : []),
    { name: 'suburb_code', kind: 'geography', description: GEOGRAPHY_MEANING['suburb_code']! },
    ...fileColumns.map((c) => {
      const v = catalog.variables[c.source.dataset][c.source.variable]!;
      const of = c.source.link ? `${v.description}, of ${LINKED_OF[c.source.link] ?? c.source.link} (empty where there is none)` : v.description;
      const variable = c.name.slice(0, c.name.length - (c.role === 'variable' ? 0 : `_${c.role}`.length));
      if (c.role === 'coarse') return { name: c.name, kind: 'coarse', description: `${of}: coarse categories for every record (empty where the value is missing: see ${missingColumnName(variable)})` };
      if (c.role === 'missing') return { name: c.name, kind: 'missing', description: `${of}: why ${variable} is missing (${c.labels.join('; ')}), empty where it is not` };
      const fineNote = c.nullFor ? `; empty for records of small suburbs: see ${coarseColumnName(c.name)}` : '';
      const missingNote = fileColumns.some((m) => m.name === missingColumnName(c.name)) ? `; empty where the value is missing: see ${missingColumnName(c.name)}` : '';
      return { name: c.name, kind: c.source.link ? 'linked' : 'variable', description: `${of} (${c.nullFor ? 'fine categories' : 'categories'}${fineNote}${missingNote})` };
    }),
    ...(hierarchical ? HIERARCHICAL_COLUMNS.map((name) => ({ name, kind: 'geography', description: GEOGRAPHY_MEANING[name]! })) : []),
  ];
}

/** The joined columns of linked records (family_*, dwelling_*), each with the full dictionary `variables` gives the record's own. */
function linkedVariables(catalog: Catalog, fileColumns: readonly VariableFileColumn[]) {
  return fileColumns
    .filter((c) => c.source.link && c.role === 'variable')
    .map((c) => {
      const v = catalog.variables[c.source.dataset][c.source.variable]!;
      return { column: c.name, dataset_type: c.source.dataset, code: v.code, ...variableEntry(catalog, v, c.name, fileColumns) };
    });
}

/** The dictionary as sheet rows: a row per label of each column (linked records' first, then the dataset's variables), each followed by its coarse companion's. */
export function dictionarySheetRows(catalog: Catalog, dataset: DatasetType, fileColumns: readonly VariableFileColumn[]): (string | number)[][] {
  // `missing` names a label's missing-value kind (not_applicable, non_response, partial_response), else empty;
  // `measurement` the column's level (nominal, ordinal), as the json dictionary's.
  const dictionaryRows: (string | number)[][] = [['code', 'description', 'category_index', 'label', 'missing', 'measurement']];
  const own = catalog.variables[dataset].map((v) => ({ column: v.code, ...variableEntry(catalog, v, v.code, fileColumns) }));
  const linked = linkedVariables(catalog, fileColumns).map((v) => ({ ...v, description: `${v.description} (${v.dataset_type})` }));
  for (const v of [...linked, ...own]) {
    const kindOf = (label: string) => (['not_applicable', 'non_response', 'partial_response'] as const).find((k) => v.missing[k].includes(label.trim())) ?? '';
    v.categories.forEach((label, i) => dictionaryRows.push([v.column, v.description, i + 1, label, kindOf(label), v.measurement]));
    if (!('coarse_column' in v) || v.coarse_column === undefined) continue;
    const coarseDescription = `${v.description} (coarse categories, every record; ${v.column} is empty for small suburbs)`;
    v.coarse_categories!.forEach((label, i) => dictionaryRows.push([v.coarse_column!, coarseDescription, i + 1, label, kindOf(label), v.measurement]));
  }
  return dictionaryRows;
}
