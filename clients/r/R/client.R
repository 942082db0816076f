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

# Selections stay a JSON array even when there is one.
as_query <- function(query) {
  query$geography_selections <- I(as.character(unlist(query$geography_selections)))
  query
}

#' Prices and checks a query; spends nothing. An invalid query is a result (valid = FALSE).
spq_preview <- function(client, query) spq_call(client, "POST", "/query/preview", body = as_query(query), accept = 422L)

# 16 bytes from the operating system's randomness: /dev/urandom (Linux, macOS, BSD), else the
# openssl package's RAND_bytes (Windows). Never R's RNG: set.seed() would make every fresh
# session send the same key, replaying the first execute.
os_random_bytes <- function(n) {
  if (file.exists("/dev/urandom")) {
    con <- file("/dev/urandom", "rb")
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
    stop(what, " asks for ", format, ", which this R cannot read (no ", reader, " package): leave output_format out (csv) or install ", reader, ". Nothing was charged.", call. = FALSE)
  }
  format
}

spq_replicates <- function(client, m, query, seeds = NULL) {
  stopifnot(length(m) == 1, m >= 1, m == round(m))
  if (!is.null(query$implicate)) stop("spq_replicates chooses the implicates (1..m); leave implicate out of the query", call. = FALSE)
  if (!is.null(seeds) && length(seeds) != m) stop("seeds must hold m = ", m, " seeds, one per replicate; got ", length(seeds), call. = FALSE)
  query$output_format <- readable_format(query$output_format, "spq_replicates")
  spq_call(client, "POST", "/query/preview", body = as_query(modifyList(query, list(implicate = as.integer(m)))))
  lapply(seq_len(m), function(i) {
    seed <- if (is.null(seeds)) list() else list(seed = format(seeds[[i]], scientific = FALSE, trim = TRUE))
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

spq_pool <- function(estimates, variances, df_complete = NULL, level = 0.95) {
  q <- as.numeric(estimates)
  u <- as.numeric(variances)
  m <- length(q)
  if (m < 2 || length(u) != m) stop("spq_pool needs at least 2 estimates and one variance for each", call. = FALSE)
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

# Column -> list(categories, missing labels, ordinal), for every coded column the dictionary
# describes. A dictionary without measurement levels (servers before them) reads as nominal.
coded_columns <- function(dictionary) {
  out <- list()
  missing_of <- function(v) unlist(c(v$missing$not_applicable, v$missing$non_response, v$missing$partial_response))
  ordinal_of <- function(v) identical(v$measurement, "ordinal")
  by_code <- list()
  for (v in dictionary$variables) {
    out[[v$code]] <- list(categories = unlist(v$categories), missing = missing_of(v), ordinal = ordinal_of(v))
    by_code[[v$code]] <- out[[v$code]]
    if (!is.null(v$coarse_column)) out[[v$coarse_column]] <- list(categories = unlist(v$coarse_categories), missing = missing_of(v), ordinal = ordinal_of(v))
  }
  for (v in dictionary$linked_variables) {
    out[[v$column]] <- list(categories = unlist(v$categories), missing = by_code[[v$code]]$missing,
                            ordinal = if (is.null(v$measurement)) isTRUE(by_code[[v$code]]$ordinal) else ordinal_of(v))
  }
  out
}

# Where the records come from, from the execute result and the dictionary.
provenance_of <- function(result, dictionary) {
  meta <- if (is.null(result)) list() else result$metadata
  found <- list(query_id = result$query_id, seed = meta$seed, implicate = if (is.null(meta$implicate)) NULL else as.integer(meta$implicate),
                release_version = if (is.null(meta$version)) dictionary$version else meta$version,
                fitted_to = if (is.null(meta$fitted_to)) dictionary$fitted_to else meta$fitted_to)
  found[!vapply(found, is.null, TRUE)]
}

spq_read <- function(path, dictionary = NULL, missing = c("na", "keep"), result = NULL) {
  missing <- match.arg(missing)
  head <- readBin(path, "raw", 4)
  if (identical(head[1:2], as.raw(c(0x50, 0x4b)))) {
    dir <- tempfile()
    files <- utils::unzip(path, exdir = dir)
    data <- files[!grepl("\\.json$", files)]
    frames <- lapply(data, function(file) {
      sidecar <- files[files == paste0(file, ".dictionary.json") | (grepl("\\.json$", files) & grepl(sub(".*-(dwellings|families|persons).*", "\\1", basename(file)), basename(files)))]
      spq_read(file, jsonlite::fromJSON(sidecar[1], simplifyVector = FALSE), missing, result)
    })
    names(frames) <- sub(".*-(dwellings|families|persons).*", "\\1", basename(data))
    return(frames)
  }
  if (identical(head, charToRaw("PAR1"))) stop("parquet: read it with arrow::read_parquet (the dictionary is in its metadata)", call. = FALSE)
  if (is.null(dictionary)) stop("a csv needs its dictionary: spq_dictionary(client, result) (reading ", path, ")", call. = FALSE)
  frame <- utils::read.csv(path, colClasses = "character", na.strings = "", check.names = FALSE, encoding = "UTF-8")
  for (column in names(coded <- coded_columns(dictionary))) {
    if (!column %in% names(frame)) next
    spec <- coded[[column]]
    if (missing == "keep" && length(spec$missing) > 0) {
      frame[[column]] <- factor(frame[[column]], levels = spec$categories)
    } else {
      values <- frame[[column]]
      values[values %in% spec$missing] <- NA
      frame[[column]] <- factor(values, levels = setdiff(spec$categories, spec$missing), ordered = spec$ordinal)
    }
  }
  for (name in names(provenance <- provenance_of(result, dictionary))) attr(frame, name) <- provenance[[name]]
  frame
}

spq_fetch <- function(client, query, missing = c("na", "keep"), idempotency_key = NULL) {
  missing <- match.arg(missing)
  if (is.null(query$output_format)) query$output_format <- "csv"
  if (identical(query$output_format, "parquet")) stop("spq_fetch reads csv (or a household zip of csv): drop output_format, or read parquet with arrow::read_parquet", call. = FALSE)
  if (identical(query$output_format, "xlsx")) stop("spq_fetch reads csv (or a household zip of csv): drop output_format, or read xlsx with readxl", call. = FALSE)
  result <- spq_execute(client, query, idempotency_key = idempotency_key)
  path <- tempfile()
  on.exit(unlink(path))
  spq_download(client, result, path)
  dictionary <- if (!is.null(result$dictionary_url)) spq_dictionary(client, result) else NULL
  spq_read(path, dictionary, missing, result)
}
