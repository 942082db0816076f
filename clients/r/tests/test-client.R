# The R client's tests, against a running spq server (SPQ_BASE_URL, SPQ_API_KEY): the repository's
# suite installs the package into a fresh library and runs this file (test/clients/r.test.ts).
library(spqclient)

base <- Sys.getenv("SPQ_BASE_URL")
key <- Sys.getenv("SPQ_API_KEY")
stopifnot(nzchar(base), nzchar(key))
dir <- tempfile()
dir.create(dir)
check <- function(label, ok) {
  if (!isTRUE(ok)) stop("FAILED: ", label, call. = FALSE)
  cat("ok -", label, "\n")
}

spq <- spq_client(base, key, backoff = 0.01)
small_cost <- function(spq, q) spq_preview(spq, q)$credit_cost
query <- list(geography_level = "suburb", geography_selections = "Fitzroy", dataset_type = "persons",
              n_observations = 200, output_format = "csv")

preview <- spq_preview(spq, query)
check("preview prices a one-selection query (the selection stays a JSON array)", identical(preview$valid, TRUE) && preview$credit_cost == 1)
invalid <- spq_preview(spq, modifyList(query, list(geography_selections = "Fitzroyy")))
check("an invalid preview is a result", identical(invalid$valid, FALSE))

result <- spq_execute(spq, query)
check("execute answers with a link, seed and version", grepl("^http", result$download_url) && nzchar(result$metadata$seed))
path <- spq_download(spq, result, file.path(dir, "fitzroy.csv"))
persons <- spq_read(path, spq_dictionary(spq, result))
check("one row per record", nrow(persons) == 200)
check("ids are text with their leading zeros", all(grepl("^P[0-9]{9}$", persons$person_id)))
check("AGE5P is an ordered factor in the ABS order", is.ordered(persons$AGE5P) && levels(persons$AGE5P)[1] == "0-4 years")
check("INCP orders only substantive levels", !any(c("Not stated", "Not applicable") %in% levels(persons$INCP)))
check("missing codes are NA", sum(is.na(persons$INCP)) > 0)
check("max() never lands on a missing code", !(as.character(max(persons$INCP, na.rm = TRUE)) %in% c("Not stated", "Not applicable")))
kept <- spq_read(path, spq_dictionary(spq, result), missing = "keep")
check("missing = 'keep' keeps them as levels of an unordered factor", !is.ordered(kept$INCP) && "Not applicable" %in% levels(kept$INCP) && !anyNA(kept$INCP))

household <- spq_execute(spq, list(geography_level = "suburb", geography_selections = "Fitzroy", dataset_type = "dwellings",
                                   n_observations = 5, output_format = "csv", linked_records = "household"))
frames <- spq_read(spq_download(spq, household, file.path(dir, "household.zip")))
check("a household zip reads as linked data frames", identical(sort(names(frames)), c("dwellings", "families", "persons")))
check("its keys link persons to the dwellings drawn", nrow(frames$dwellings) == 5 && all(frames$persons$dwelling_id %in% frames$dwellings$dwelling_id))

history <- spq_history(spq, per_page = 1)
check("the history iterates every page", length(history) == 2 && household$query_id %in% vapply(history, function(q) q$query_id, "") && result$query_id %in% vapply(history, function(q) q$query_id, ""))

joined_result <- spq_execute(spq, modifyList(query, list(n_observations = 50, linked_records = "joined")))
joined_path <- spq_download(spq, joined_result, file.path(dir, "joined.csv"))
joined <- spq_read(joined_path, spq_dictionary(spq, joined_result))
raw <- utils::read.csv(joined_path, colClasses = "character", na.strings = character(), check.names = FALSE)
check("joined dwelling_RNTRD reads like an own variable: ordered, no missing code a level, every missing value NA",
      is.ordered(joined$dwelling_RNTRD) && !any(c("Not applicable", "Not stated") %in% levels(joined$dwelling_RNTRD)) &&
        sum(is.na(joined$dwelling_RNTRD)) == sum(!raw$dwelling_RNTRD %in% levels(joined$dwelling_RNTRD)) && sum(is.na(joined$dwelling_RNTRD)) > 0)

before <- spq_credits(spq)$credits_remaining
fetched <- spq_fetch(spq, query[setdiff(names(query), "output_format")])
check("spq_fetch runs a query into a labelled data frame in one call", nrow(fetched) == 200 && is.ordered(fetched$AGE5P) && !("Not stated" %in% levels(fetched$INCP)))
check("spq_fetch charges what the query costs", spq_credits(spq)$credits_remaining == before - spq_history(spq, per_page = 1)[[1]]$credit_cost)
linked <- spq_fetch(spq, list(geography_level = "suburb", geography_selections = "Fitzroy", dataset_type = "dwellings", n_observations = 3, linked_records = "household"))
check("spq_fetch reads a household query as linked frames", identical(sort(names(linked)), c("dwellings", "families", "persons")) && all(linked$persons$dwelling_id %in% linked$dwellings$dwelling_id))
if (!requireNamespace("arrow", quietly = TRUE)) {
  balance <- spq_credits(spq)$credits_remaining
  refused <- tryCatch(spq_fetch(spq, modifyList(query, list(output_format = "parquet"))), error = function(e) conditionMessage(e))
  check("spq_fetch refuses parquet without arrow before any charge, naming csv and the package", grepl("(csv)", refused, fixed = TRUE) &&
          grepl('install.packages("arrow")', refused, fixed = TRUE) && spq_credits(spq)$credits_remaining == balance)
}

err <- tryCatch(spq_execute(spq, modifyList(query, list(n_observations = 10000000))), spq_error = function(e) e)
check("a 422 is an spq_validation_error condition with its detail", inherits(err, "spq_validation_error") && err$status == 422 && nzchar(err$request_id))
bad <- tryCatch(spq_credits(spq_client(base, "spq_live_notakey", retries = 0)), spq_error = function(e) e)
check("a bad key is spq_unauthorized", inherits(bad, "spq_unauthorized") && bad$status == 401)

check("backoff: 1 s doubling, capped at 60 s", isTRUE(all.equal(vapply(c(0, 1, 2, 6, 20), spq_backoff, 0, jitter = 0.5), c(1, 2, 4, 60, 60))))
check("backoff jitter stays within 75% and the cap", all(vapply(0:12, spq_backoff, 0, jitter = 0) >= 0.75) && all(vapply(0:12, spq_backoff, 0, jitter = 0.9999) <= 60))
small <- modifyList(query, list(n_observations = 50))
before <- spq_credits(spq)$credits_remaining
draws <- spq_replicates(spq, 5, small)
check("replicates come from implicates 1 to 5", identical(vapply(draws, function(d) as.integer(d$metadata$implicate), 0L), 1:5))
check("each implicate has its own synthesis seed", length(unique(vapply(draws, function(d) d$metadata$synthesis_seed, ""))) == 5)
check("five replicates cost five single draws", spq_credits(spq)$credits_remaining == before - 5 * small_cost(spq, small))
again <- spq_execute(spq, modifyList(small, list(implicate = 3L, seed = draws[[3]]$metadata$seed)))
read_text <- function(r, name) paste(readLines(spq_download(spq, r, file.path(dir, name))), collapse = "\n")
check("a seed with its implicate gives the same file back", identical(read_text(again, "again.csv"), read_text(draws[[3]], "third.csv")))
balance <- spq_credits(spq)$credits_remaining
beyond <- tryCatch(spq_replicates(spq, 6, small), spq_error = function(e) e)
check("more replicates than implicates is refused before any charge", inherits(beyond, "spq_validation_error") && spq_credits(spq)$credits_remaining == balance)

# Measurement levels: nominal variables unordered (treatment contrasts in lm), ordinal ones low to high.
levels_result <- spq_execute(spq, modifyList(query, list(implicate = 2L)))
typed <- spq_read(spq_download(spq, levels_result, file.path(dir, "levels.csv")), spq_dictionary(spq, levels_result), result = levels_result)
check("nominal variables are unordered factors", !any(vapply(typed[c("SEXP", "BPLP", "RELP", "OCCP", "INDP", "MTWP")], is.ordered, TRUE)) && is.factor(typed$SEXP))
check("ordinal variables are ordered factors", all(vapply(typed[c("AGE5P", "INCP", "HEAP", "HSCP", "ENGLP")], is.ordered, TRUE)))
check("HEAP runs from low to high", identical(tail(levels(typed$HEAP), 3), c("Bachelor Degree Level", "Graduate Diploma and Graduate Certificate Level", "Postgraduate Degree Level")))
check("employed with hours not stated are employed, not NA", "Employed, hours of work not stated" %in% levels(typed$LFSP))
fit <- stats::lm(as.numeric(AGE5P) ~ SEXP, data = typed)
check("lm uses treatment contrasts for a nominal factor", "SEXPFemale" %in% names(stats::coef(fit)))
check("the frame carries its provenance", identical(attr(typed, "query_id"), levels_result$query_id) && identical(attr(typed, "seed"), levels_result$metadata$seed) &&
        identical(attr(typed, "implicate"), 2L) && identical(attr(typed, "release_version"), levels_result$metadata$version) && identical(attr(typed, "fitted_to"), levels_result$metadata$fitted_to))
bare <- spq_read(file.path(dir, "levels.csv"), spq_dictionary(spq, levels_result))
check("without result = the frame carries the same provenance, from the csv's dictionary", all(vapply(c("query_id", "seed", "implicate", "release_version", "fitted_to"),
        function(a) identical(attr(bare, a), attr(typed, a)), TRUE)) && startsWith(attr(bare, "fitted_to_text"), paste0(attr(bare, "fitted_to"), ":")))
check("every column carries its description as its label attribute", startsWith(attr(bare$person_id, "label"), "The person record") && nzchar(attr(bare$HEAP, "label")))

# The model's coefficients pooled as mice::pool pools them, on lm fits to five replicates.
if (requireNamespace("mice", quietly = TRUE)) {
  fit_draws <- spq_replicates(spq, 5, small)
  fits <- lapply(seq_along(fit_draws), function(i) {
    frame <- spq_read(spq_download(spq, fit_draws[[i]], file.path(dir, paste0("fit", i, ".csv"))), spq_dictionary(spq, fit_draws[[i]]))
    stats::lm(as.numeric(AGE5P) ~ SEXP + as.numeric(HSCP), data = frame)
  })
  ours <- spq_pool(fits)$pooled
  theirs <- mice::pool(mice::as.mira(fits))$pooled
  columns <- c("estimate", "ubar", "b", "t", "dfcom", "df", "riv", "lambda", "fmi")
  worst <- max(abs(as.matrix(ours[columns]) - as.matrix(theirs[columns])))
  cat("spq_pool vs mice::pool on lm fits to 5 replicates: max abs difference", format(worst, digits = 3), "\n")
  check("spq_pool of lm fits equals mice::pool to 1e-8 (coefficients, variances, df)", worst < 1e-8 && identical(ours$term, as.character(theirs$term)))
  check("spq_pool takes coefficient vectors and covariance matrices with the complete-data df", max(abs(spq_pool(lapply(fits, stats::coef), lapply(fits, stats::vcov),
        df_complete = fits[[1]]$df.residual)$pooled$df - theirs$df)) < 1e-8)
}
variables <- spq_variables(spq, "Fitzroy")
check("spq_variables lists codes with measurement levels", variables$measurement[variables$code == "SEXP"] == "nominal" && variables$measurement[variables$code == "AGE5P"] == "ordinal")
listed <- spq_history(spq, per_page = 5)
check("history items carry seed and implicate", any(vapply(listed, function(q) identical(q$seed, levels_result$metadata$seed) && identical(as.integer(q$implicate), 2L), TRUE)))

# Idempotency-Keys from the operating system, whatever set.seed() says.
set.seed(2024); first_key <- spq_idempotency_key()
set.seed(2024); second_key <- spq_idempotency_key()
check("Idempotency-Keys do not follow set.seed()", first_key != second_key && grepl("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", first_key))

# Replicates in a format this R reads, checked before anything is charged.
balance <- spq_credits(spq)$credits_remaining
if (!requireNamespace("arrow", quietly = TRUE)) {
  unreadable <- tryCatch(spq_replicates(spq, 2, modifyList(small, list(output_format = "parquet"))), error = function(e) conditionMessage(e))
  check("parquet replicates without arrow are refused before any charge", grepl("Nothing was charged", unreadable) && spq_credits(spq)$credits_remaining == balance)
}
seeded <- spq_replicates(spq, 2, small[setdiff(names(small), "output_format")], seeds = c(11, "12"))
check("replicates default to csv and take seeds", all(vapply(seeded, function(d) !is.null(d$dictionary_url), TRUE)) && identical(vapply(seeded, function(d) d$metadata$seed, ""), c("11", "12")))

# Seeds: only numbers R holds exactly; larger ones as strings, sent digit for digit.
big <- tryCatch(spq_execute(spq, modifyList(small, list(seed = 5619307297291908987))), error = function(e) conditionMessage(e))
check("a seed above 2^53 as a number is refused, saying to pass it as a string", grepl("cannot be held exactly", big) && grepl('seed = "5619307297291908987"', big, fixed = TRUE))
check("a fractional seed is refused", grepl("cannot be held exactly", tryCatch(spq_execute(spq, modifyList(small, list(seed = 1.5))), error = function(e) conditionMessage(e))))
as_text <- spq_execute(spq, modifyList(small, list(seed = "5619307297291908987")))
check("a seed given as a string goes digit for digit", identical(as_text$metadata$seed, "5619307297291908987"))
check("a whole-number seed below 2^53 goes as its digits", identical(spq_execute(spq, modifyList(small, list(seed = 9007199254740991)))$metadata$seed, "9007199254740991"))
old_warn <- options(warn = 2)
warned <- tryCatch({ spq_idempotency_key(); spq_execute(spq, small); "none" }, warning = function(w) conditionMessage(w), error = function(e) conditionMessage(e))
options(old_warn)
check("Idempotency-Keys come from the OS without a warning (options(warn = 2))", identical(warned, "none"))

# Rubin's rules.
pooled <- spq_pool(c(1, 1.2, 0.9, 1.1), c(0.04, 0.05, 0.03, 0.04))
b <- stats::var(c(1, 1.2, 0.9, 1.1)); t <- 0.04 + 1.25 * b; r <- 1.25 * b / 0.04; df <- 3 * (1 + 1 / r)^2
check("spq_pool follows Rubin's rules", isTRUE(all.equal(c(pooled$q_bar, pooled$w, pooled$b, pooled$t, pooled$df), c(1.05, 0.04, b, t, df))) &&
        isTRUE(all.equal(pooled$ci, 1.05 + c(-1, 1) * stats::qt(0.975, df) * sqrt(t))) && pooled$df_method == "rubin")
check("spq_pool's Barnard-Rubin df stay below the complete-data df", spq_pool(c(1, 1.2, 0.9, 1.1), c(0.04, 0.05, 0.03, 0.04), df_complete = 10)$df < 10)
refusal <- function(...) tryCatch({ spq_pool(...); "accepted" }, error = function(e) conditionMessage(e))
check("spq_pool refuses a 2 x 5 matrix instead of pooling m = 10", grepl("2 x 5 matrix", refusal(matrix(1:10 / 10, 2, 5), matrix(1:10 / 100, 2, 5))))
v <- c(a = 1, b = 2); c2 <- diag(2)
check("spq_pool refuses vectors of different lengths", grepl("same length", refusal(list(v, c(1, 2, 3)), list(c2, c2))))
check("spq_pool refuses a covariance of the wrong size", grepl("must be 2 x 2", refusal(list(v, v), list(c2, diag(3)))))
check("spq_pool refuses a matrix count that differs from the vectors'", grepl("one covariance matrix per coefficient vector", refusal(list(v, v, v), list(c2, c2))))
check("spq_pool refuses one fit where it needs a list of them", grepl("a list of m fits", refusal(stats::lm(mpg ~ wt, data = datasets::mtcars))))
check("spq_pool refuses covariances that are not matrices", grepl("list of m covariance matrices", refusal(list(v, v), list(1, 2))))

# Hand-made files (test/clients/fixtures): the representation with C_missing, and files before it, read alike.
fixtures <- Sys.getenv("SPQ_CLIENT_FIXTURES")
if (nzchar(fixtures)) {
  read_fixture <- function(name, ...) spq_read(file.path(fixtures, paste0(name, ".csv")), jsonlite::fromJSON(file.path(fixtures, paste0(name, ".csv.dictionary.json")), simplifyVector = FALSE), ...)
  for (name in c("new-shape", "old-shape")) {
    f <- read_fixture(name)
    check(paste(name, "HEAP: substantive levels ordered, missing codes NA"), is.ordered(f$HEAP) && nlevels(f$HEAP) == 4 && sum(is.na(f$HEAP)) == 3 &&
            sum(f$HEAP >= "Bachelor Degree Level", na.rm = TRUE) == 2 && as.character(max(f$HEAP, na.rm = TRUE)) == "Postgraduate Degree Level")
    check(paste(name, "INCP and its coarse companion: missing codes NA"), sum(is.na(f$INCP)) == 4 && sum(is.na(f$INCP_coarse)) == 3 && !("Not applicable" %in% levels(f$INCP_coarse)))
    check(paste(name, "joined dwelling_RNTRD reads like an own variable"), is.ordered(f$dwelling_RNTRD) && identical(levels(f$dwelling_RNTRD), c("Nil payments", "$1-$199", "$200-$399", "$400 and over")) &&
            sum(is.na(f$dwelling_RNTRD)) == 2 && as.character(max(f$dwelling_RNTRD, na.rm = TRUE)) == "$400 and over")
    kept <- read_fixture(name, missing = "keep")
    check(paste(name, "missing = 'keep' puts the missing codes back"), identical(as.character(kept$HEAP[1:3]), c("Not applicable", "Bachelor Degree Level", "Not stated")) && !is.ordered(kept$HEAP))
  }
  f <- read_fixture("new-shape")
  check("C_missing columns are unordered factors of the missing codes", all(vapply(f[c("HEAP_missing", "INCP_missing", "dwelling_RNTRD_missing")],
        function(x) is.factor(x) && !is.ordered(x) && identical(levels(x), c("Not applicable", "Not stated")), TRUE)) && identical(as.vector(table(f$HEAP_missing)), c(2L, 1L)))
  check("a file's provenance comes from its dictionary", identical(attr(f, "query_id"), "qry_01TESTFIXTURE0000000000000") && identical(attr(f, "seed"), "5619307297291908987") &&
          identical(attr(f, "implicate"), 2L) && identical(attr(f, "fitted_to"), "demo") && startsWith(attr(f, "fitted_to_text"), "demo: fitted"))
  check("columns carry labels as haven does", identical(attr(f$HEAP, "label"), "Highest non-school qualification: level of education") &&
          identical(attr(f$dwelling_RNTRD, "label"), "Rent (weekly), of the record's dwelling"))
  mice_fixture <- jsonlite::fromJSON(file.path(fixtures, "mice-pool-lm.json"))
  pooled <- spq_pool(lapply(seq_len(5), function(i) mice_fixture$coefficients[i, ]), lapply(seq_len(5), function(i) mice_fixture$covariances[i, , ]), df_complete = mice_fixture$df_residual)$pooled
  check("spq_pool equals the mice fixture the other clients are checked against", max(abs(as.matrix(pooled[names(mice_fixture$mice)]) - do.call(cbind, mice_fixture$mice))) < 1e-8)
}

# The retry loop against a server that answers 429 (SPQ_FAKE_URL, started by test/clients/r.test.ts).
fake <- Sys.getenv("SPQ_FAKE_URL")
if (nzchar(fake)) {
  started <- Sys.time()
  long <- tryCatch(spq_credits(spq_client(paste0(fake, "/retry-after-3600"), key)), spq_rate_limited = function(e) e)
  check("a Retry-After of an hour is a classed condition carrying the wait, at once", inherits(long, "spq_rate_limited") && long$retry_after == 3600 &&
          as.numeric(difftime(Sys.time(), started, units = "secs")) < 5)
  waits <- c()
  started <- Sys.time()
  short <- spq_credits(spq_client(paste0(fake, "/retry-after-1-then-ok"), key, on_retry = function(attempt, status, wait) waits <<- c(waits, wait)))
  elapsed <- as.numeric(difftime(Sys.time(), started, units = "secs"))
  check("a Retry-After of 1 s is waited out once and the call succeeds", identical(short$credits_remaining, 7L) && identical(waits, 1) && elapsed >= 1 && elapsed < 5)
}
cat("all R client tests passed\n")
