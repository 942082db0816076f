/** The dollar ranges of personal income (INCP 1‥13), as both the short and the long headers spell them. */
export const PERSON_INCOME_RANGES = [
  '1_149', '150_299', '300_399', '400_499', '500_649', '650_799', '800_999', '1000_1249', '1250_1499', '1500_1749', '1750_1999',
  '2000_2999', '3000_3499',
] as const;
