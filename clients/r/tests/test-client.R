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

before <- spq_credits(spq)$credits_remaining
fetched <- spq_fetch(spq, query[setdiff(names(query), "output_format")])
check("spq_fetch runs a query into a labelled data frame in one call", nrow(fetched) == 200 && is.ordered(fetched$AGE5P) && !("Not stated" %in% levels(fetched$INCP)))
check("spq_fetch charges what the query costs", spq_credits(spq)$credits_remaining == before - spq_history(spq, per_page = 1)[[1]]$credit_cost)
linked <- spq_fetch(spq, list(geography_level = "suburb", geography_selections = "Fitzroy", dataset_type = "dwellings", n_observations = 3, linked_records = "household"))
check("spq_fetch reads a household query as linked frames", identical(sort(names(linked)), c("dwellings", "families", "persons")) && all(linked$persons$dwelling_id %in% linked$dwellings$dwelling_id))
refused <- tryCatch(spq_fetch(spq, modifyList(query, list(output_format = "parquet"))), error = function(e) conditionMessage(e))
check("spq_fetch says how to read parquet instead of failing on it", grepl("arrow::read_parquet", refused))

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

# Rubin's rules.
pooled <- spq_pool(c(1, 1.2, 0.9, 1.1), c(0.04, 0.05, 0.03, 0.04))
b <- stats::var(c(1, 1.2, 0.9, 1.1)); t <- 0.04 + 1.25 * b; r <- 1.25 * b / 0.04; df <- 3 * (1 + 1 / r)^2
check("spq_pool follows Rubin's rules", isTRUE(all.equal(c(pooled$q_bar, pooled$w, pooled$b, pooled$t, pooled$df), c(1.05, 0.04, b, t, df))) &&
        isTRUE(all.equal(pooled$ci, 1.05 + c(-1, 1) * stats::qt(0.975, df) * sqrt(t))) && pooled$df_method == "rubin")
check("spq_pool's Barnard-Rubin df stay below the complete-data df", spq_pool(c(1, 1.2, 0.9, 1.1), c(0.04, 0.05, 0.03, 0.04), df_complete = 10)$df < 10)

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
