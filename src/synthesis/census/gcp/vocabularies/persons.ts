import { cats, catsBut, type TableVocabulary, type Where } from '../vocabulary.ts';

/**
 * Demographic person tables: G01, G04–G07, G09, G13, G14, G27. G08 (ancestry) has no spq
 * variable; single countries (G09), languages (G13) and denominations (G14) are finer than
 * spq's regions, groups and religions, so those columns stay undefined.
 */
const ADULTS: readonly [number, number] = [15, 115];
const INDIGENOUS: Where = { INGP: cats('INGP', 'Aboriginal', 'Torres Strait Islander', 'Both Aboriginal and Torres Strait Islander') };
const OTHER_LANGUAGE: Where = { LANP: catsBut('LANP', 'English only', 'Not stated') };
const ENGLISH_ONLY: Where = { LANP: cats('LANP', 'English only') };

export const PERSON_VOCABULARIES: readonly TableVocabulary[] = [
  {
    table: 'G01',
    universe: 'persons',
    phrases: [
      ['Total_Persons', {}],
      ['Aboriginal_and_or_Torres_Strait_Islander_Persons', INDIGENOUS],
      ['Aboriginal', { INGP: cats('INGP', 'Aboriginal') }],
      ['Torres_Strait_Islander', { INGP: cats('INGP', 'Torres Strait Islander') }],
      ['Both_Aboriginal_and_Torres_Strait_Islander', { INGP: cats('INGP', 'Both Aboriginal and Torres Strait Islander') }],
      ['Birthplace_Australia', { BPLP: cats('BPLP', 'Australia') }],
      ['Birthplace_Elsewhere', { BPLP: catsBut('BPLP', 'Australia', 'Not stated') }],
      ['Language_used_at_home_English_only', ENGLISH_ONLY],
      ['Language_used_at_home_Other_Language', OTHER_LANGUAGE],
      ['Australian_citizen', { CITP: cats('CITP', 'Australian citizen') }],
      // Footnote (e) "excludes persons who did not state which type of education institution";
      // it lists preschool, primary, secondary and tertiary but excludes nothing else, so "Other
      // educational institution" is read as included (as in the ABS's own counts of attendees).
      ['Age_of_Persons_attending_an_education_institution', { TYPP: catsBut('TYPP', 'Not stated', 'Not applicable') }],
      ['Highest_year_of_school_completed_Year_12_or_equivalent', { HSCP: cats('HSCP', 'Year 12 or equivalent') }],
      ['Highest_year_of_school_completed_Year_11_or_equivalent', { HSCP: cats('HSCP', 'Year 11 or equivalent') }],
      ['Highest_year_of_school_completed_Year_10_or_equivalent', { HSCP: cats('HSCP', 'Year 10 or equivalent') }],
      ['Highest_year_of_school_completed_Year_9_or_equivalent', { HSCP: cats('HSCP', 'Year 9 or equivalent') }],
      ['Highest_year_of_school_completed_Year_8_or_below', { HSCP: cats('HSCP', 'Year 8 or below') }],
      ['Highest_year_of_school_completed_Did_not_go_to_school', { HSCP: cats('HSCP', 'Did not go to school') }],
    ],
  },
  { table: 'G04', universe: 'persons', phrases: [] },
  {
    table: 'G05',
    universe: 'persons',
    ages: ADULTS,
    phrases: (['Married', 'Separated', 'Divorced', 'Widowed', 'Never married'] as const).map((l) => [l.replace(' ', '_'), { MSTP: cats('MSTP', l) }] as const),
  },
  {
    table: 'G06',
    universe: 'persons',
    ages: ADULTS,
    phrases: (['Married in a registered marriage', 'Married in a de facto marriage', 'Not married'] as const).map(
      (l) => [l.replaceAll(' ', '_'), { MDCP: cats('MDCP', l) }] as const,
    ),
  },
  {
    table: 'G07',
    universe: 'persons',
    phrases: [
      ['Aboriginal_and_or_Torres_Strait_Islander', INDIGENOUS],
      ['Non_Indigenous', { INGP: cats('INGP', 'Non-Indigenous') }],
      ['Indigenous_status_not_stated', { INGP: cats('INGP', 'Not stated') }],
    ],
  },
  {
    table: 'G09',
    universe: 'persons',
    // Each listed country is part of a BPLP region; "Born_elsewhere" is the residual of the
    // listed countries (footnote d), not a union of regions.
    phrases: [
      ['Australia', { BPLP: cats('BPLP', 'Australia') }],
      ['Country_of_birth_not_stated', { BPLP: cats('BPLP', 'Not stated') }],
    ],
  },
  {
    table: 'G13',
    universe: 'persons',
    // Rows are languages, columns proficiency (ENGLP). The ABS's proficiency category "Speaks
    // English only" is exactly the persons using English only at home, so as a column it is the
    // same condition as the row (our ENGLP has "Not applicable" there, which also holds persons
    // the demo truth gives no proficiency, e.g. under-5s). "Not_stated" (footnote b) is both
    // "proficiency not stated" and "language and proficiency not stated": ENGLP "Not stated".
    // Single languages and the Chinese, Indo-Aryan and Southeast Asian Austronesian subtotals
    // are parts of our LANP groups; only Australian Indigenous Languages is a whole group.
    phrases: [
      ['Speaks_English_only', ENGLISH_ONLY],
      ['Uses_other_language_Australian_Indigenous_Languages', { LANP: cats('LANP', 'Australian Indigenous languages') }],
      ['Uses_other_language_Total', OTHER_LANGUAGE],
      ['Language_used_at_home_not_stated', { LANP: cats('LANP', 'Not stated') }],
      ['Uses_other_language_and_speaks_English_Very_well_or_well', { ENGLP: cats('ENGLP', 'Very well', 'Well') }],
      ['Uses_other_language_and_speaks_English_Not_well_or_not_at_all', { ENGLP: cats('ENGLP', 'Not well', 'Not at all') }],
      ['Uses_other_language_and_speaks_English_Total', { ENGLP: cats('ENGLP', 'Very well', 'Well', 'Not well', 'Not at all') }],
      ['Not_stated', { ENGLP: cats('ENGLP', 'Not stated') }],
    ],
  },
  {
    table: 'G14',
    universe: 'persons',
    phrases: [
      ['Buddhism', { RELP: cats('RELP', 'Buddhism') }],
      ['Christianity', { RELP: cats('RELP', 'Christianity') }],
      ['Hinduism', { RELP: cats('RELP', 'Hinduism') }],
      ['Islam', { RELP: cats('RELP', 'Islam') }],
      ['Judaism', { RELP: cats('RELP', 'Judaism') }],
      ['Other_Religions', { RELP: cats('RELP', 'Other religions') }],
      [
        'Secular_Beliefs_and_Other_Spiritual_Beliefs_and_No_Religious_Affiliation',
        { RELP: cats('RELP', 'Secular Beliefs and Other Spiritual Beliefs and No Religious Affiliation') },
      ],
      ['Religious_affiliation_not_stated', { RELP: cats('RELP', 'Not stated') }],
    ],
  },
  {
    // Persons in occupied private dwellings (excl. "Visitors only" and "Other non-classifiable"
    // households): exactly the persons with a relationship in household.
    table: 'G27',
    universe: 'persons',
    where: { RLHP: catsBut('RLHP', 'Not applicable') },
    phrases: (
      [
        ['Partner_in_a_registered_marriage', 'Partner in a registered marriage'],
        ['Partner_in_de_facto_marriage', 'Partner in a de facto marriage'],
        ['Lone_parent', 'Lone parent'],
        ['Child_under_15', 'Child under 15'],
        ['Dependent_student_aged_15_24_years', 'Dependent student (aged 15-24 years)'],
        // "…_aged_15_24_years_Total": the age split reads "aged_15_24_years" as the age (15–24,
        // all a dependent student can be) and leaves "Dependent_student_Total".
        ['Dependent_student', 'Dependent student (aged 15-24 years)'],
        ['Non_dependent_child', 'Non-dependent child'],
        ['Other_related_individual', 'Other related individual'],
        ['Unrelated_individual_living_in_family_household', 'Unrelated individual living in family household'],
        ['Group_household_member', 'Group household member'],
        ['Lone_person', 'Lone person'],
        ['Visitor_from_within_Australia', 'Visitor (from within Australia)'],
      ] as const
    ).map(([phrase, label]) => [phrase, { RLHP: cats('RLHP', label) }] as const),
  },
];
