import { categoryIndex } from './variables.ts';

/**
 * RLHP's category indices by role: the census's relationship codes, which the synthesizer's
 * structural rules and the realism measures both read.
 */
export const RLHP = {
  registered: categoryIndex('RLHP', 'Partner in a registered marriage'),
  deFacto: categoryIndex('RLHP', 'Partner in a de facto marriage'),
  loneParent: categoryIndex('RLHP', 'Lone parent'),
  under15: categoryIndex('RLHP', 'Child under 15'),
  student: categoryIndex('RLHP', 'Dependent student (aged 15-24 years)'),
  nonDependent: categoryIndex('RLHP', 'Non-dependent child'),
  otherRelated: categoryIndex('RLHP', 'Other related individual'),
  unrelated: categoryIndex('RLHP', 'Unrelated individual living in family household'),
  group: categoryIndex('RLHP', 'Group household member'),
  lone: categoryIndex('RLHP', 'Lone person'),
  visitor: categoryIndex('RLHP', 'Visitor (from within Australia)'),
  notApplicable: categoryIndex('RLHP', 'Not applicable'),
};

/** A partner in a registered or de facto marriage (the other partner at home or away). */
export const isPartner = (r: number): boolean => r === RLHP.registered || r === RLHP.deFacto;

/** A child in a family: under 15, a dependent student or a non-dependent child. */
export const isChild = (r: number): boolean => r === RLHP.under15 || r === RLHP.student || r === RLHP.nonDependent;
