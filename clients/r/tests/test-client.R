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
cat("all R client tests passed\n")
