/**
 * The GCP tables spq reads or writes (issue 9's list), beside the controls that bind the fitted
 * ones to their variables (controls.ts): scripts/gen-gcp-layout.ts generates the DataPack layout
 * (census/gcp/layout.generated.ts) for exactly these: the tables the synthesizer fits
 * (census/tables.ts INPUT_TABLES) and those read whole through the vocabularies of census/gcp/.
 * G24, G26, G43–G45, G50 and G51 came in with issue 39 for their SAL part files: the columns
 * their vocabularies define (totals by age, labour force, levels, occupations) bind a suburb.
 */
export const GCP_TABLES_READ: readonly string[] = [
  'G01', 'G02', 'G04', 'G05', 'G06', 'G07', 'G08', 'G09', 'G12', 'G13', 'G14', 'G15', 'G16', 'G17', 'G18', 'G19', 'G20',
  'G23', 'G24', 'G25', 'G26', 'G27', 'G29', 'G30', 'G31', 'G32', 'G33', 'G34', 'G35', 'G36', 'G37', 'G38', 'G39', 'G40',
  'G41', 'G42', 'G43', 'G44', 'G45', 'G46', 'G47', 'G48', 'G49', 'G50', 'G51', 'G52', 'G53', 'G54', 'G55', 'G56', 'G57',
  'G58', 'G59', 'G60', 'G61', 'G62',
];
