/**
 * Which categories of a variable are missing-value codes, as IPUMS and DDI codebooks mark them,
 * so that a reader orders only the substantive levels and a comparison or a maximum never lands
 * on "Not stated". Read from the ABS labels (2021 Census Dictionary wording), one rule per kind.
 */
export interface MissingCodes {
  /** The question does not apply to the record ("Not applicable"; DLOD "Not allocated" for postal-area and LGA pools). */
  readonly not_applicable: readonly string[];
  /** No answer, or one too vague to code ("Not stated", "Inadequately described/Not stated", "All incomes not stated"). */
  readonly non_response: readonly string[];
  /**
   * Part of the answer is missing, so the record's category is unknown ("Partial income stated":
   * some member's income not stated; a family whose parents' labour force status is not stated).
   * Not LFSP's "Employed, hours of work not stated": that person is employed, which is all LFSP
   * says (the hours are HRSP's, whose "Not stated" marks them).
   */
  readonly partial_response: readonly string[];
}

const NOT_APPLICABLE = /^(not applicable|not allocated)$/i;
const NON_RESPONSE = /^(not stated|all incomes not stated|landlord type not stated|inadequately described\/not stated|level of education inadequately described)$/i;
const PARTIAL_RESPONSE = /^partial income stated$|labour force status not stated/i;

export function missingCodesOf(categories: readonly string[]): MissingCodes {
  const labels = categories.map((c) => c.trim());
  return {
    not_applicable: labels.filter((c) => NOT_APPLICABLE.test(c)),
    non_response: labels.filter((c) => NON_RESPONSE.test(c)),
    partial_response: labels.filter((c) => PARTIAL_RESPONSE.test(c)),
  };
}

/** The categories that are not missing-value codes, in their order: what an ordered factor should hold. */
export function substantiveCategories(categories: readonly string[]): string[] {
  const missing = missingCodesOf(categories);
  const all = new Set([...missing.not_applicable, ...missing.non_response, ...missing.partial_response]);
  return categories.filter((c) => !all.has(c.trim()));
}
