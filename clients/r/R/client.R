# The official R client of the spq API (Synthetic Population Query service): httr2 and jsonlite.
#
#   spq <- spq_client("http://127.0.0.1:8080")               # key from SPQ_API_KEY
#   result <- spq_execute(spq, list(geography_level = "suburb", geography_selections = "Fitzroy",
#                                   dataset_type = "persons", n_observations = 500, output_format = "csv"))
#   persons <- spq_read(spq_download(spq, result, "fitzroy.csv"), spq_dictionary(spq, result))
#
# Retries follow the API's contract, in this client's own loop (httr2's retries are switched off,
# so no httr2 version sleeps through a Retry-After on its own: Debian's 0.2.2 does): 429,
# 500/502/503/504 and network failures back off from 1 s, doubling, capped at 60 s (+-25%
# jitter); a 429's Retry-After is waited out up to `max_retry_after` seconds (default 60) and a
# longer one is signalled at once as an `spq_rate_limited` condition carrying `retry_after`.
# Every API error is a condition of classes c("spq_<code>", "spq_error", "error", "condition")
# with status, code, detail and request_id. Idempotency-Keys come from the operating system's
# randomness (spq_idempotency_key), never from R's RNG, which set.seed() makes repeat.

RETRY_STATUSES <- c(429L, 500L, 502L, 503L, 504L)
CODE_OF_STATUS <- c(
  "400" = "bad_request", "401" = "unauthorized", "402" = "insufficient_credits", "403" = "forbidden",
  "404" = "not_found", "409" = "conflict", "410" = "gone", "422" = "validation_error",
  "429" = "rate_limited", "500" = "internal_error", "503" = "service_unavailable"
)

#' A client for one spq server and API key.
spq_client <- function(base_url = Sys.getenv("SPQ_URL", "http://127.0.0.1:8080"), api_key = Sys.getenv("SPQ_API_KEY"),
                       retries = 5, backoff = 1, max_backoff = 60, max_retry_after = 60, on_retry = NULL) {
  if (!nzchar(api_key)) stop("set SPQ_API_KEY (or pass api_key): spq_live_... or spq_test_...", call. = FALSE)
  structure(list(base_url = sub("/+$", "", base_url), api_key = api_key, retries = retries, backoff = backoff,
                 max_backoff = max_backoff, max_retry_after = max_retry_after, on_retry = on_retry),
            class = "spq_client")
}

#' The contract's backoff for a retry: 1 s, doubling, capped, +-25% jitter, never past the cap.
spq_backoff <- function(attempt, first = 1, cap = 60, jitter = stats::runif(1)) {
  min(cap, min(cap, first * 2^attempt) * (0.75 + jitter / 2))
}

# Retry-After in seconds (delta-seconds or an HTTP date), NULL when absent or unreadable.
retry_after_seconds <- function(header) {
  if (is.null(header) || !nzchar(trimws(header))) return(NULL)
  text <- trimws(header)
  if (grepl("^[0-9]+$", text)) return(as.numeric(text))
  when <- suppressWarnings(as.POSIXct(text, format = "%a, %d %b %Y %H:%M:%S", tz = "GMT"))
  if (is.na(when)) return(NULL)
  max(0, as.numeric(difftime(when, Sys.time(), units = "secs")))
}

spq_condition <- function(resp) {
  status <- httr2::resp_status(resp)
  text <- tryCatch(httr2::resp_body_string(resp), error = function(e) "")
  body <- tryCatch(jsonlite::fromJSON(text, simplifyVector = FALSE), error = function(e) NULL)
  code <- if (is.list(body) && is.character(body$error)) body$error else unname(CODE_OF_STATUS[as.character(status)])
  detail <- if (is.list(body) && !is.null(body$detail)) body$detail else if (nzchar(text)) text else paste("HTTP", status)
  request_id <- httr2::resp_header(resp, "X-Request-Id")
  retry_after <- if (identical(code, "rate_limited")) retry_after_seconds(httr2::resp_header(resp, "Retry-After")) else NULL
  message <- paste0(status, if (!is.na(code) && !is.null(code)) paste0(" ", code) else "", ": ", detail,
                    if (!is.null(retry_after)) paste0("; retry after ", ceiling(retry_after), " s") else "",
                    if (!is.null(request_id)) paste0(" (request ", request_id, ")") else "")
  classes <- c(if (!is.null(code) && !is.na(code)) paste0("spq_", code), "spq_error", "error", "condition")
  structure(class = classes, list(message = message, call = NULL, status = status, code = code, detail = detail,
                                  request_id = request_id, retry_after = retry_after, body = body))
}

# One request with the contract's retries.
spq_send <- function(client, method, url, body = NULL, headers = list(), authorised = TRUE, path = NULL) {
  attempt <- 0
  repeat {
    req <- httr2::request(url)
    req <- httr2::req_method(req, method)
    req <- httr2::req_error(req, is_error = function(resp) FALSE)
    # Nothing is transient to httr2: its own retry (and, in httr2 0.2.x, its sleep through a
    # Retry-After even with no retry left) never runs; this loop decides every wait.
    req <- httr2::req_retry(req, max_tries = 1, is_transient = function(resp) FALSE)
    if (authorised) req <- httr2::req_headers(req, Authorization = paste("Bearer", client$api_key))
    if (length(headers) > 0) req <- do.call(httr2::req_headers, c(list(req), headers))
    if (!is.null(body)) req <- httr2::req_body_json(req, body, auto_unbox = TRUE)
    resp <- tryCatch(if (is.null(path)) httr2::req_perform(req) else httr2::req_perform(req, path = path), error = function(e) e)
    status <- 0L
    wait <- NULL
    if (inherits(resp, "error")) {
      if (attempt >= client$retries) stop(resp)
    } else {
      status <- httr2::resp_status(resp)
      if (!(status %in% RETRY_STATUSES) || attempt >= client$retries) return(resp)
      if (status == 429L) {
        wait <- retry_after_seconds(httr2::resp_header(resp, "Retry-After"))
        # Longer than the caller allows: theirs to decide on, not a silent hour of sleep.
        if (!is.null(wait) && wait > client$max_retry_after) return(resp)
      }
    }
    if (is.null(wait)) wait <- spq_backoff(attempt, client$backoff, client$max_backoff)
    attempt <- attempt + 1
    if (is.function(client$on_retry)) client$on_retry(attempt, status, wait)
    Sys.sleep(wait)
  }
}

spq_call <- function(client, method, path, body = NULL, headers = list(), accept = integer()) {
  resp <- spq_send(client, method, paste0(client$base_url, path), body = body, headers = headers)
  status <- httr2::resp_status(resp)
  if (status < 400 || status %in% accept) return(httr2::resp_body_json(resp, simplifyVector = FALSE))
  stop(spq_condition(resp))
}

# Selections stay a JSON array even when there is one; a seed goes as decimal text (the API takes
# a string of up to 20 digits, or a JSON integer up to 2^53 - 1), never rounded.
as_query <- function(query) {
  query$geography_selections <- I(as.character(unlist(query$geography_selections)))
  if (!is.null(query$seed)) query$seed <- seed_text(query$seed)
  query
}

#' A sampling seed as the decimal text the API takes. A number is accepted only when R holds it
#' exactly (a whole number from 0 to 2^53 - 1): R's numbers are doubles, so 5619307297291908987
#' is already 5619307297291909120 by the time R has read it. Larger seeds go as strings.
seed_text <- function(seed) {
  if (length(seed) != 1 || is.na(seed)) stop("a seed is one number or one string of decimal digits", call. = FALSE)
  if (is.character(seed)) {
    if (!grepl("^[0-9]{1,20}$", seed)) stop("a seed string holds only decimal digits (up to 20, below 2^64), e.g. \"5619307297291908987\"; got \"", seed, "\"", call. = FALSE)
    return(seed)
  }
  if (!is.numeric(seed)) stop("a seed is a whole number or a string of decimal digits, not ", class(seed)[1], call. = FALSE)
  if (seed < 0 || seed != floor(seed) || seed > 2^53 - 1) {
    stop("seed ", format(seed, digits = 22), " cannot be held exactly by an R number (only whole numbers from 0 to 2^53 - 1 can): ",
         "pass it as a string of its digits, e.g. seed = \"5619307297291908987\" (metadata$seed is one already)", call. = FALSE)
  }
  format(seed, scientific = FALSE, trim = TRUE)
}

#' Prices and checks a query; spends nothing. An invalid query is a result (valid = FALSE).
spq_preview <- function(client, query) spq_call(client, "POST", "/query/preview", body = as_query(query), accept = 422L)

# 16 bytes from the operating system's randomness: /dev/urandom (Linux, macOS, BSD), else the
# openssl package's RAND_bytes (Windows). Never R's RNG: set.seed() would make every fresh
# session send the same key, replaying the first execute. raw = TRUE opens the device as it is:
# without it R warns "'/dev/urandom' is not a regular file" (an error under options(warn = 2)).
os_random_bytes <- function(n) {
  if (file.exists("/dev/urandom")) {
    con <- file("/dev/urandom", "rb", raw = TRUE)
    on.exit(close(con))
    return(readBin(con, "raw", n))
  }
  if (requireNamespace("openssl", quietly = TRUE)) return(openssl::rand_bytes(n))
  stop("no source of operating-system randomness for an Idempotency-Key: install the openssl package, or pass idempotency_key", call. = FALSE)
}

spq_idempotency_key <- function() {
  bytes <- os_random_bytes(16)
  bytes[7] <- as.raw(bitwOr(bitwAnd(as.integer(bytes[7]), 0x0f), 0x40)) # a version-4 UUID
  bytes[9] <- as.raw(bitwOr(bitwAnd(as.integer(bytes[9]), 0x3f), 0x80))
  hex <- paste(format(bytes), collapse = "")
  paste(substring(hex, c(1, 9, 13, 17, 21), c(8, 12, 16, 20, 32)), collapse = "-")
}

spq_execute <- function(client, query, idempotency_key = NULL) {
  key <- if (is.null(idempotency_key)) spq_idempotency_key() else idempotency_key
  spq_call(client, "POST", "/query/execute", body = as_query(query), headers = list(`Idempotency-Key` = key))
}

spq_credits <- function(client) spq_call(client, "GET", "/account/credits")

# A format spq_read can read here, or an error before anything is charged.
readable_format <- function(format, what) {
  if (is.null(format)) return("csv")
  reader <- c(parquet = "arrow", xlsx = "readxl")[format]
  if (!is.na(reader) && !requireNamespace(reader, quietly = TRUE)) {
    stop(what, " asks for ", format, ", which this R cannot read (no ", reader, " package): leave output_format out (csv), or install.packages(\"", reader, "\"). Nothing was charged.", call. = FALSE)
  }
  format
}

spq_replicates <- function(client, m, query, seeds = NULL) {
  stopifnot(length(m) == 1, m >= 1, m == round(m))
  if (!is.null(query$implicate)) stop("spq_replicates chooses the implicates (1..m); leave implicate out of the query", call. = FALSE)
  if (!is.null(seeds) && length(seeds) != m) stop("seeds must hold m = ", m, " seeds, one per replicate; got ", length(seeds), call. = FALSE)
  if (!is.null(seeds)) invisible(lapply(seeds, seed_text)) # every seed checked before anything is charged
  query$output_format <- readable_format(query$output_format, "spq_replicates")
  spq_call(client, "POST", "/query/preview", body = as_query(modifyList(query, list(implicate = as.integer(m)))))
  lapply(seq_len(m), function(i) {
    seed <- if (is.null(seeds)) list() else list(seed = seed_text(seeds[[i]]))
    spq_execute(client, modifyList(query, c(list(implicate = i), seed)))
  })
}

spq_variables <- function(client, suburb_id, dataset_type = "persons") {
  result <- spq_call(client, "GET", paste0("/geography/", utils::URLencode(suburb_id, reserved = TRUE), "/variables?dataset_type=", dataset_type))
  data.frame(
    code = vapply(result$variables, function(v) v$code, ""),
    description = vapply(result$variables, function(v) v$description, ""),
    n_categories = vapply(result$variables, function(v) as.integer(v$n_categories), 0L),
    measurement = vapply(result$variables, function(v) if (is.null(v$measurement)) NA_character_ else v$measurement, ""),
    stringsAsFactors = FALSE
  )
}

#' Rubin's rules over m replicates (docs/multiple-imputation.md). One estimate: spq_pool(estimates,
#' variances), two vectors of m numbers. A whole model: spq_pool(fits), a list of m fitted models
#' (lm, glm: anything with coef() and vcov(); the first one's df.residual is the complete-data df, as mice takes it), or
#' spq_pool(coefficients, covariances), a list of m coefficient vectors and a list of m covariance
#' matrices: see pool_model.
spq_pool <- function(estimates, variances = NULL, df_complete = NULL, level = 0.95) {
  if (inherits(estimates, c("lm", "glm"))) stop("spq_pool takes a list of m fits, one per replicate: spq_pool(list(fit1, fit2, ...)), not one fit", call. = FALSE)
  if (is.list(estimates)) return(pool_model(estimates, variances, df_complete, level))
  if (!is.null(dim(estimates)) || (!is.null(variances) && (!is.null(dim(variances)) || is.list(variances)))) {
    stop("spq_pool(estimates, variances) takes two vectors of m numbers (one estimate and its variance per replicate); got ",
         shape_of(estimates), " and ", shape_of(variances), ". For a model give a list of m fits, or a list of m coefficient vectors and a list of m covariance matrices", call. = FALSE)
  }
  if (is.null(variances)) stop("spq_pool needs the estimates' variances: spq_pool(estimates, variances), or a list of fitted models: spq_pool(fits)", call. = FALSE)
  q <- as.numeric(estimates)
  u <- as.numeric(variances)
  m <- length(q)
  if (m < 2 || length(u) != m) stop("spq_pool needs at least 2 estimates and one variance for each; got ", m, " estimates and ", length(u), " variances", call. = FALSE)
  q_bar <- mean(q)
  w <- mean(u)
  b <- stats::var(q)
  t <- w + (1 + 1 / m) * b
  r <- if (w > 0) (1 + 1 / m) * b / w else Inf
  lambda <- if (t > 0) (1 + 1 / m) * b / t else 0
  df <- if (b > 0) (m - 1) * (1 + 1 / r)^2 else Inf
  if (!is.null(df_complete)) {
    observed <- (df_complete + 1) / (df_complete + 3) * df_complete * (1 - lambda)
    if (observed > 0) df <- 1 / (1 / df + 1 / observed)
  }
  half <- if (t > 0) stats::qt((1 + level) / 2, df) * sqrt(t) else 0
  list(q_bar = q_bar, w = w, b = b, t = t, df = df, ci = c(q_bar - half, q_bar + half), m = m, r = r, lambda = lambda,
       level = level, df_method = if (is.null(df_complete)) "rubin" else "barnard-rubin")
}

shape_of <- function(x) {
  if (is.null(x)) return("nothing")
  if (!is.null(dim(x))) return(paste0("a ", paste(dim(x), collapse = " x "), " ", class(x)[1]))
  paste0(if (is.list(x)) "a list" else "a vector", " of ", length(x))
}

# m fits, or m coefficient vectors with m covariance matrices, as list(terms, vectors, matrices, dfcom).
model_inputs <- function(estimates, covariances) {
  is_fit <- function(f) !is.numeric(f) && !is.null(tryCatch(stats::coef(f), error = function(e) NULL))
  if (all(vapply(estimates, is_fit, TRUE))) {
    if (!is.null(covariances)) stop("spq_pool(fits) takes fitted models alone: leave the covariances out (each fit gives its vcov())", call. = FALSE)
    # The first fit's residual df, as mice takes it (fits to replicates of one size have the same).
    dfcom <- tryCatch(stats::df.residual(estimates[[1]]), error = function(e) NULL)
    return(list(terms = names(stats::coef(estimates[[1]])), vectors = lapply(estimates, function(f) unname(stats::coef(f))),
                matrices = lapply(estimates, function(f) unname(as.matrix(stats::vcov(f)))), dfcom = dfcom))
  }
  if (!all(vapply(estimates, function(v) is.numeric(v) && is.null(dim(v)), TRUE))) {
    stop("spq_pool(list): give a list of m fitted models (lm, glm, ...) or a list of m coefficient vectors with a list of m covariance matrices", call. = FALSE)
  }
  if (!is.list(covariances) || !all(vapply(covariances, function(c) is.matrix(c) && is.numeric(c), TRUE))) {
    stop("spq_pool(coefficients, covariances): covariances must be a list of m covariance matrices, one per coefficient vector; got ", shape_of(covariances), call. = FALSE)
  }
  list(terms = names(estimates[[1]]), vectors = lapply(estimates, as.numeric), matrices = lapply(covariances, unname), dfcom = NULL)
}

#' Rubin's rules for a whole model, per coefficient, as mice::pool computes them: estimate (mean of
#' the m coefficients), ubar (mean of their variances), b (variance of the estimates),
#' t = ubar + (1 + 1/m) b, df (Barnard-Rubin with the complete-data df dfcom: df_complete, else the
#' first fit's df.residual, else Inf, which gives (m - 1) / lambda^2; lambda floored at 1e-4 as mice does),
#' riv, lambda, fmi and the confidence interval; `covariance` is the total covariance matrix
#' (mean U_i + (1 + 1/m) B).
pool_model <- function(estimates, covariances, df_complete, level) {
  inputs <- model_inputs(estimates, covariances)
  m <- length(inputs$vectors)
  if (m < 2) stop("spq_pool needs the fits of at least 2 replicates; got ", m, call. = FALSE)
  if (length(inputs$matrices) != m) stop("spq_pool needs one covariance matrix per coefficient vector; got ", m, " vectors and ", length(inputs$matrices), " matrices", call. = FALSE)
  p <- length(inputs$vectors[[1]])
  lengths <- vapply(inputs$vectors, length, 0L)
  if (p == 0 || any(lengths != p)) stop("every coefficient vector must have the same length; got lengths ", paste(lengths, collapse = ", "), call. = FALSE)
  for (i in seq_len(m)) {
    if (!identical(dim(inputs$matrices[[i]]), c(p, p))) stop("covariance matrix ", i, " is ", paste(dim(inputs$matrices[[i]]), collapse = " x "), "; it must be ", p, " x ", p, ", one row and column per coefficient", call. = FALSE)
  }
  dfcom <- if (!is.null(df_complete)) df_complete else if (!is.null(inputs$dfcom)) inputs$dfcom else Inf
  q <- do.call(rbind, inputs$vectors)
  ubar <- Reduce(`+`, inputs$matrices) / m
  between <- stats::cov(q)
  total <- ubar + (1 + 1 / m) * between
  u <- diag(ubar); b <- diag(between); t <- diag(total)
  lambda <- (1 + 1 / m) * b / t
  riv <- (1 + 1 / m) * b / u
  floored <- pmax(lambda, 1e-4)
  dfold <- (m - 1) / floored^2
  dfobs <- (dfcom + 1) / (dfcom + 3) * dfcom * (1 - floored)
  df <- if (is.infinite(dfcom)) dfold else dfold * dfobs / (dfold + dfobs)
  half <- stats::qt((1 + level) / 2, df) * sqrt(t)
  terms <- if (is.null(inputs$terms)) as.character(seq_len(p)) else inputs$terms
  pooled <- data.frame(term = terms, m = m, estimate = colMeans(q), ubar = u, b = b, t = t, dfcom = dfcom, df = df, riv = riv,
                       lambda = lambda, fmi = (riv + 2 / (df + 3)) / (riv + 1), lower = colMeans(q) - half, upper = colMeans(q) + half,
                       row.names = NULL, stringsAsFactors = FALSE)
  dimnames(total) <- list(terms, terms)
  structure(list(m = m, dfcom = dfcom, level = level, pooled = pooled, covariance = total), class = "spq_pooled_model")
}

print.spq_pooled_model <- function(x, ...) {
  cat("Rubin's rules over m =", x$m, "fits (complete-data df", x$dfcom, ")\n")
  print(x$pooled, ...)
  invisible(x)
}

spq_search <- function(client, query, level = NULL, state = NULL, limit = NULL) {
  params <- c(query = query, level = level, state = state, limit = limit)
  spq_call(client, "GET", paste0("/geography/search?", paste(names(params), vapply(params, utils::URLencode, "", reserved = TRUE), sep = "=", collapse = "&")))
}

#' Every history item, newest first, page after page (a list of items).
spq_history <- function(client, per_page = 100, dataset_type = NULL) {
  items <- list()
  page <- 1
  repeat {
    path <- paste0("/query/history?page=", page, "&per_page=", per_page, if (!is.null(dataset_type)) paste0("&dataset_type=", dataset_type) else "")
    result <- spq_call(client, "GET", path)
    items <- c(items, result$queries)
    if (page >= result$pagination$total_pages) return(items)
    page <- page + 1
  }
}

#' Saves a result file (or a dictionary_url) to `path`; the file appears only when complete.
spq_download <- function(client, target, path) {
  url <- if (is.character(target)) target else target$download_url
  partial <- paste0(path, ".part")
  resp <- spq_send(client, "GET", url, authorised = FALSE, path = partial)
  if (httr2::resp_status(resp) >= 400) {
    unlink(partial)
    stop(spq_condition(resp))
  }
  file.rename(partial, path)
  path
}

#' A csv result's dictionary (its dictionary_url): codes, labels, missing-value codes.
spq_dictionary <- function(client, result) {
  if (is.null(result$dictionary_url)) stop("only csv results have a dictionary_url", call. = FALSE)
  path <- tempfile(fileext = ".json")
  on.exit(unlink(path))
  spq_download(client, result$dictionary_url, path)
  jsonlite::fromJSON(path, simplifyVector = FALSE)
}

# The ABS labels of missing-value codes as the server classifies them (src/synthesis/census/missing-codes.ts),
# for dictionaries whose linked variables list none (files written before they carried their full dictionary).
MISSING_LABEL <- "^(not applicable|not allocated|not stated|all incomes not stated|landlord type not stated|inadequately described/not stated|level of education inadequately described|partial income stated)$|labour force status not stated"

# Column -> list(categories, missing labels, ordinal, reason = its C_missing column or NULL), for
# every coded column the dictionary describes; linked columns (family_*, dwelling_*) read like the
# record's own variables, their missing codes their own, else their variable's, else classified
# from their categories. A dictionary without measurement levels (servers before them) reads as nominal.
coded_columns <- function(dictionary) {
  out <- list()
  missing_of <- function(v) unlist(c(v$missing$not_applicable, v$missing$non_response, v$missing$partial_response))
  by_code <- list()
  for (v in dictionary$variables) by_code[[v$code]] <- v
  linked <- lapply(dictionary$linked_variables, function(v) {
    own <- by_code[[v$code]]
    if (length(missing_of(v)) == 0) {
      v$missing <- if (length(missing_of(own)) > 0) own$missing else list(non_response = grep(MISSING_LABEL, trimws(unlist(v$categories)), ignore.case = TRUE, value = TRUE))
    }
    if (is.null(v$measurement)) v$measurement <- own$measurement
    v$code <- v$column
    v
  })
  for (v in c(dictionary$variables, linked)) {
    spec <- list(categories = unlist(v$categories), missing = missing_of(v), ordinal = identical(v$measurement, "ordinal"), reason = v$missing_column)
    out[[v$code]] <- spec
    if (!is.null(v$coarse_column)) out[[v$coarse_column]] <- modifyList(spec, list(categories = unlist(v$coarse_categories)))
  }
  out
}

# Column -> what it holds: the dictionary's descriptions (every column it lists, else its variables).
labels_of <- function(dictionary) {
  labels <- list()
  for (v in dictionary$variables) labels[[v$code]] <- v$description
  for (v in dictionary$linked_variables) if (!is.null(v$description)) labels[[v$column]] <- v$description
  for (c in dictionary$columns) labels[[c$name]] <- c$description
  labels
}

# Where the records come from: the execute result, else the file's own metadata (the csv
# dictionary's `metadata`, parquet key-value metadata) and dictionary. fitted_to is "census" or
# "demo", fitted_to_text the dictionary's sentence.
provenance_of <- function(result, dictionary, file_metadata = NULL) {
  meta <- if (is.null(result)) list() else result$metadata
  file <- modifyList(if (is.null(dictionary$metadata)) list() else dictionary$metadata, as.list(file_metadata))
  pick <- function(...) { for (x in list(...)) if (!is.null(x)) return(x); NULL }
  sentence <- dictionary$fitted_to
  code <- if (!is.null(sentence) && sub(":.*", "", sentence) %in% c("census", "demo")) sub(":.*", "", sentence) else NULL
  implicate <- pick(meta$implicate, file$implicate)
  found <- list(query_id = pick(result$query_id, file$query_id), seed = pick(meta$seed, file$seed),
                implicate = if (is.null(implicate)) NULL else as.integer(implicate),
                release_version = pick(meta$version, file$version, dictionary$version),
                fitted_to = pick(meta$fitted_to, file$fitted_to, code), fitted_to_text = sentence)
  found[!vapply(found, is.null, TRUE)]
}

# A parquet file as a data frame of text columns, with its key-value metadata (arrow's read of
# the file's own metadata; the Arrow schema's where arrow shows that instead).
read_parquet_text <- function(path) {
  if (!requireNamespace("arrow", quietly = TRUE)) {
    stop(path, " is parquet, which needs the arrow package: install.packages(\"arrow\"), or ask for csv (leave output_format out)", call. = FALSE)
  }
  table <- arrow::read_parquet(path, as_data_frame = FALSE)
  metadata <- as.list(table$metadata)
  frame <- as.data.frame(table)
  for (name in names(frame)) if (is.factor(frame[[name]]) || !is.character(frame[[name]])) frame[[name]] <- as.character(frame[[name]])
  list(frame = frame, metadata = metadata[setdiff(names(metadata), c("r", "ARROW:schema"))])
}

# The coded columns as factors (see spq_read), the C_missing columns as unordered factors of their missing codes.
typed_frame <- function(frame, dictionary, missing) {
  coded <- coded_columns(dictionary)
  reasons <- list()
  for (column in names(coded)) {
    reason <- coded[[column]]$reason
    if (is.null(reason) && paste0(column, "_missing") %in% names(frame)) reason <- paste0(column, "_missing")
    if (!is.null(reason) && reason %in% names(frame) && length(coded[[column]]$missing) > 0) {
      coded[[column]]$reason <- reason
      reasons[[reason]] <- coded[[column]]$missing
    } else coded[[column]]$reason <- NULL
  }
  for (column in setdiff(names(coded), names(reasons))) {
    if (!column %in% names(frame)) next
    spec <- coded[[column]]
    values <- frame[[column]]
    if (missing == "keep" && length(spec$missing) > 0) {
      if (!is.null(spec$reason)) values <- ifelse(is.na(values), frame[[spec$reason]], values)
      frame[[column]] <- factor(values, levels = spec$categories)
    } else {
      values[values %in% spec$missing] <- NA
      frame[[column]] <- factor(values, levels = setdiff(spec$categories, spec$missing), ordered = spec$ordinal)
    }
  }
  for (reason in names(reasons)) frame[[reason]] <- factor(frame[[reason]], levels = reasons[[reason]])
  frame
}

#' A downloaded file (csv with its dictionary, parquet with arrow, or a household zip) as a data
#' frame: ids text, coded columns factors of their substantive levels (ordered for ordinal
#' variables), missing codes NA (their reason in the C_missing factor where the file has one;
#' missing = "keep" keeps them as levels of an unordered factor), each column's description in its
#' `label` attribute (as haven does), the provenance in the frame's attributes.
spq_read <- function(path, dictionary = NULL, missing = c("na", "keep"), result = NULL) {
  missing <- match.arg(missing)
  head <- readBin(path, "raw", 4)
  if (identical(head[1:2], as.raw(c(0x50, 0x4b)))) {
    dir <- tempfile()
    files <- utils::unzip(path, exdir = dir)
    if (any(grepl("xl/workbook.xml", files, fixed = TRUE))) stop(path, " is xlsx, which spq_read does not read: ask for csv (leave output_format out), or read it with readxl", call. = FALSE)
    data <- files[!grepl("\\.json$", files)]
    frames <- lapply(data, function(file) {
      sidecar <- files[files == paste0(file, ".dictionary.json") | (grepl("\\.json$", files) & grepl(sub(".*-(dwellings|families|persons).*", "\\1", basename(file)), basename(files)))]
      spq_read(file, if (length(sidecar) > 0) jsonlite::fromJSON(sidecar[1], simplifyVector = FALSE) else NULL, missing, result)
    })
    names(frames) <- sub(".*-(dwellings|families|persons).*", "\\1", basename(data))
    return(frames)
  }
  file_metadata <- NULL
  if (identical(head, charToRaw("PAR1"))) {
    parquet <- read_parquet_text(path)
    frame <- parquet$frame
    file_metadata <- parquet$metadata[setdiff(names(parquet$metadata), "dictionary")]
    if (is.null(dictionary) && !is.null(parquet$metadata$dictionary)) dictionary <- jsonlite::fromJSON(parquet$metadata$dictionary, simplifyVector = FALSE)
  } else {
    frame <- utils::read.csv(path, colClasses = "character", na.strings = "", check.names = FALSE, encoding = "UTF-8")
  }
  if (is.null(dictionary)) stop("a csv needs its dictionary: spq_dictionary(client, result) (reading ", path, ")", call. = FALSE)
  frame <- typed_frame(frame, dictionary, missing)
  labels <- labels_of(dictionary)
  for (column in intersect(names(frame), names(labels))) attr(frame[[column]], "label") <- labels[[column]]
  for (name in names(provenance <- provenance_of(result, dictionary, file_metadata))) attr(frame, name) <- provenance[[name]]
  frame
}

spq_fetch <- function(client, query, missing = c("na", "keep"), idempotency_key = NULL) {
  missing <- match.arg(missing)
  if (is.null(query$output_format)) query$output_format <- "csv"
  # Before any charge: a format spq_read cannot read here is refused, naming the one that works.
  if (identical(query$output_format, "xlsx")) stop("spq_fetch reads csv (or parquet with the arrow package): leave output_format out (csv), or execute and read the xlsx with readxl. Nothing was charged.", call. = FALSE)
  query$output_format <- readable_format(query$output_format, "spq_fetch")
  result <- spq_execute(client, query, idempotency_key = idempotency_key)
  path <- tempfile()
  on.exit(unlink(path))
  spq_download(client, result, path)
  dictionary <- if (!is.null(result$dictionary_url)) spq_dictionary(client, result) else NULL
  spq_read(path, dictionary, missing, result)
}
