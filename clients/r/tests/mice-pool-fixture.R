# Writes the fixture that the Python and TypeScript clients' pooling is checked against
# (test/clients/fixtures/mice-pool-lm.json): five lm fits (one per resample of mtcars, seeds
# 1..5), their coefficients, covariance matrices and residual df, and what mice::pool makes of
# them. test/clients/r.test.ts re-runs it and requires the committed file to agree.
#   Rscript clients/r/tests/mice-pool-fixture.R test/clients/fixtures/mice-pool-lm.json
args <- commandArgs(trailingOnly = TRUE)
fits <- lapply(1:5, function(seed) {
  set.seed(seed)
  stats::lm(mpg ~ wt + hp + factor(cyl), data = datasets::mtcars[sample(nrow(datasets::mtcars), replace = TRUE), ])
})
pooled <- mice::pool(mice::as.mira(fits))$pooled
fixture <- list(
  source = "mice::pool (mice 3.x) of lm(mpg ~ wt + hp + factor(cyl)) on five resamples of mtcars (set.seed(1..5)); clients/r/tests/mice-pool-fixture.R",
  terms = names(stats::coef(fits[[1]])),
  coefficients = lapply(fits, function(f) unname(stats::coef(f))),
  covariances = lapply(fits, function(f) unname(stats::vcov(f))),
  df_residual = fits[[1]]$df.residual,
  mice = lapply(c("estimate", "ubar", "b", "t", "dfcom", "df", "riv", "lambda", "fmi"), function(k) pooled[[k]])
)
names(fixture$mice) <- c("estimate", "ubar", "b", "t", "dfcom", "df", "riv", "lambda", "fmi")
json <- jsonlite::toJSON(fixture, digits = NA, auto_unbox = TRUE, pretty = TRUE)
if (length(args) > 0) writeLines(json, args[[1]]) else cat(json, "\n")
