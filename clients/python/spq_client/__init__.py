"""The official Python client of the spq API (Synthetic Population Query service).

Standard library only (urllib); pandas (and pyarrow for parquet) only for ``to_dataframe``::

    from spq_client import SpqClient
    spq = SpqClient()        # SPQ_URL (default http://127.0.0.1:8080) and SPQ_API_KEY from the environment
    query = {"geography_level": "suburb", "geography_selections": ["Fitzroy"],
             "dataset_type": "persons", "n_observations": 500, "output_format": "csv"}
    df = spq.dataframe(query)                      # execute, download, read: a labelled DataFrame
    # or step by step:
    result = spq.execute(query)
    df = spq.to_dataframe(spq.download(result, "fitzroy.csv"), spq.dictionary(result))

Retries follow the contract: 429, 500/502/503/504 and network failures back off from 1 s,
doubling, capped at 60 s (±25% jitter); a 429's Retry-After is waited out up to
``max_retry_after`` seconds (default 60), and a longer one is not slept through: the call raises
``RateLimitError`` carrying ``retry_after``. ``on_retry(attempt, status, wait)`` hears every wait
before it starts. ``execute`` keeps one Idempotency-Key across its retries, so a retried execute
never charges twice. Every API error is an ``SpqError``, of the subclass of its catalogue code.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
import zipfile
from email.utils import parsedate_to_datetime
from typing import Any, Callable, Dict, Iterator, List, Optional, Union

from .pooling import pool, pool_model

# The API version this client speaks (the OpenAPI document's info.version); the package has the same.
__version__ = "1.0.0"

__all__ = [
    "SpqClient", "SpqError", "categories_of", "missing_codes_of", "measurements_of", "file_kind", "backoff_seconds", "retry_after_seconds",
    "pool", "pool_model", "provenance_of", "missing_columns_of", "unreadable_format", "variable_labels_of", "parquet_key_value_metadata",
    "BadRequestError", "UnauthorizedError", "InsufficientCreditsError", "ForbiddenError", "NotFoundError",
    "ConflictError", "GoneError", "ValidationError", "RateLimitError", "InternalError", "ServiceUnavailableError",
]

RETRY_STATUSES = {429, 500, 502, 503, 504}


class SpqError(Exception):
    """An answer the API gave as an error: status, catalogue code, detail and request id."""

    def __init__(self, status: int, code: Optional[str], detail: str, request_id: Optional[str], body: Any = None):
        super().__init__(f"{status}{' ' + code if code else ''}: {detail}{f' (request {request_id})' if request_id else ''}")
        self.status = status
        self.code = code
        self.detail = detail
        self.request_id = request_id
        self.body = body


class BadRequestError(SpqError):
    pass


class UnauthorizedError(SpqError):
    pass


class InsufficientCreditsError(SpqError):
    pass


class ForbiddenError(SpqError):
    pass


class NotFoundError(SpqError):
    pass


class ConflictError(SpqError):
    pass


class GoneError(SpqError):
    pass


class ValidationError(SpqError):
    pass


class InternalError(SpqError):
    pass


class ServiceUnavailableError(SpqError):
    pass


class RateLimitError(SpqError):
    """429: ``retry_after`` is how many seconds the server asked to wait (None when it did not say)."""

    def __init__(self, status: int, code: Optional[str], detail: str, request_id: Optional[str], body: Any = None,
                 retry_after: Optional[float] = None):
        super().__init__(status, code, detail + (f"; retry after {int(retry_after + 0.999)} s" if retry_after is not None else ""), request_id, body)
        self.detail = detail
        self.retry_after = retry_after


ERROR_CLASSES = {
    "bad_request": BadRequestError, "unauthorized": UnauthorizedError, "insufficient_credits": InsufficientCreditsError,
    "forbidden": ForbiddenError, "not_found": NotFoundError, "conflict": ConflictError, "gone": GoneError,
    "validation_error": ValidationError, "internal_error": InternalError, "service_unavailable": ServiceUnavailableError,
}
CODE_OF_STATUS = {400: "bad_request", 401: "unauthorized", 402: "insufficient_credits", 403: "forbidden", 404: "not_found",
                  409: "conflict", 410: "gone", 422: "validation_error", 429: "rate_limited", 500: "internal_error",
                  503: "service_unavailable"}


def retry_after_seconds(header: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Retry-After in seconds: delta-seconds or an HTTP date; None when absent or unreadable."""
    if header is None or not header.strip():
        return None
    text = header.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def backoff_seconds(attempt: int, first: float = 1.0, cap: float = 60.0, rand: Callable[[], float] = random.random) -> float:
    """The contract's backoff: 1 s, doubling, capped (default 60 s), ±25% jitter, never past the cap."""
    base = min(cap, first * (2 ** attempt))
    return min(cap, base * (0.75 + rand() / 2))


# The ABS labels of missing-value codes, as the server classifies them (src/synthesis/census/missing-codes.ts):
# used only for dictionaries whose linked variables do not list their missing codes (files written before
# linked variables carried their full dictionary).
_NOT_APPLICABLE = re.compile(r"^(not applicable|not allocated)$", re.I)
_NON_RESPONSE = re.compile(r"^(not stated|all incomes not stated|landlord type not stated|inadequately described/not stated|"
                           r"level of education inadequately described)$", re.I)
_PARTIAL_RESPONSE = re.compile(r"^partial income stated$|labour force status not stated", re.I)


def _classified_missing(categories: List[str]) -> List[str]:
    return [c for c in categories if any(p.search(c.strip()) for p in (_NOT_APPLICABLE, _NON_RESPONSE, _PARTIAL_RESPONSE))]


def _missing_labels(v: Dict[str, Any]) -> List[str]:
    m = v.get("missing") or {}
    return [*m.get("not_applicable", []), *m.get("non_response", []), *m.get("partial_response", [])]


def _linked_entries(dictionary: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The linked variables (family_*, dwelling_* columns) as entries shaped like ``variables``: code is
    the column; missing codes, measurement and coarse fields their own, else (files before linked
    variables carried their full dictionary) the same variable's entry in ``variables``, else the
    missing codes classified from its categories."""
    by_code = {v["code"]: v for v in dictionary.get("variables", [])}
    out = []
    for v in dictionary.get("linked_variables", []):
        own = by_code.get(v.get("code"), {})
        missing = v.get("missing") if _missing_labels(v) else own.get("missing") or {"non_response": _classified_missing(list(v["categories"]))}
        out.append({**v, "code": v["column"], "missing": missing, "measurement": v.get("measurement") or own.get("measurement")})
    return out


def _coded_entries(dictionary: Dict[str, Any]) -> List[Dict[str, Any]]:
    return [*dictionary.get("variables", []), *_linked_entries(dictionary)]


def categories_of(dictionary: Dict[str, Any]) -> Dict[str, List[str]]:
    """Column name -> its categories in ABS order, for every coded column a dictionary describes:
    the variables (and their coarse companions), the linked records' joined columns."""
    out: Dict[str, List[str]] = {}
    for v in _coded_entries(dictionary):
        out[v["code"]] = list(v["categories"])
        if v.get("coarse_column") and v.get("coarse_categories"):
            out[v["coarse_column"]] = list(v["coarse_categories"])
    return out


def missing_codes_of(dictionary: Dict[str, Any]) -> Dict[str, List[str]]:
    """Column name -> its missing-value labels (not applicable, non-response, partial response),
    as the dictionary marks them; the linked columns take their variable's."""
    out: Dict[str, List[str]] = {}
    for v in _coded_entries(dictionary):
        out[v["code"]] = _missing_labels(v)
        if v.get("coarse_column"):
            out[v["coarse_column"]] = out[v["code"]]
    return out


def missing_columns_of(dictionary: Dict[str, Any]) -> Dict[str, str]:
    """Companion column (``C_missing``: the missing code of each record whose C is empty) -> C, as the
    dictionary names them (``missing_column``); files before them have none."""
    return {v["missing_column"]: v["code"] for v in _coded_entries(dictionary) if v.get("missing_column")}


def measurements_of(dictionary: Dict[str, Any]) -> Dict[str, str]:
    """Column name -> "ordinal" (levels run low to high) or "nominal", as the dictionary marks its
    variables; coarse companions and linked columns take their variable's. A dictionary without
    measurement levels (servers before them) reads as nominal: no order is invented."""
    out: Dict[str, str] = {}
    for v in _coded_entries(dictionary):
        out[v["code"]] = v.get("measurement") or "nominal"
        if v.get("coarse_column"):
            out[v["coarse_column"]] = out[v["code"]]
    return out


def variable_labels_of(dictionary: Dict[str, Any]) -> Dict[str, str]:
    """Column name -> what it holds (the dictionary's descriptions: every column it lists, else its variables)."""
    labels = {v["code"]: v["description"] for v in _coded_entries(dictionary) if v.get("description")}
    labels.update({c["name"]: c["description"] for c in dictionary.get("columns", []) if c.get("description")})
    return labels


def _fitted_to_code(text: Optional[str]) -> Optional[str]:
    """"census" or "demo" from a dictionary's fitted_to sentence ("census: fitted to …")."""
    head = (text or "").split(":", 1)[0].strip()
    return head if head in ("census", "demo") else None


def provenance_of(result: Optional[Dict[str, Any]] = None, dictionary: Optional[Dict[str, Any]] = None,
                  file_metadata: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
    """Where a frame's records come from: query_id, seed (sampling, decimal text), implicate,
    release_version, fitted_to ("census" or "demo") and fitted_to_text (the dictionary's sentence),
    from the execute result, else the file's own metadata (parquet key-value metadata, xlsx
    metadata sheet, the csv dictionary's ``metadata``) and dictionary. Keys no source names are left out."""
    dictionary = dictionary or {}
    meta = (result or {}).get("metadata") or {}
    file_meta = {**(dictionary.get("metadata") or {}), **(file_metadata or {})}
    implicate = meta.get("implicate", file_meta.get("implicate"))
    sentence = dictionary.get("fitted_to")
    found = {
        "query_id": (result or {}).get("query_id") or file_meta.get("query_id"),
        "seed": meta.get("seed") or file_meta.get("seed"),
        "implicate": int(implicate) if implicate is not None else None,
        "release_version": meta.get("version") or file_meta.get("version") or dictionary.get("version"),
        "fitted_to": meta.get("fitted_to") or file_meta.get("fitted_to") or _fitted_to_code(sentence),
        "fitted_to_text": sentence,
    }
    return {k: v for k, v in found.items() if v is not None}


def parquet_key_value_metadata(parquet_file: Any) -> Dict[str, str]:
    """A parquet file's own key-value metadata (query_id, seed, …, ``dictionary``) as text, from a
    ``pyarrow.parquet.ParquetFile`` (or anything shaped like it): the file's key-value metadata
    (``.metadata.metadata``, bytes keys), which every pyarrow exposes, over the Arrow schema's
    (``.schema_arrow.metadata``), which a pyarrow that reads the embedded Arrow schema may show
    instead of it."""
    def text(x: Any) -> str:
        return x.decode("utf-8") if isinstance(x, (bytes, bytearray)) else str(x)

    found: Dict[str, str] = {}
    schema = getattr(parquet_file, "schema_arrow", None)
    file_meta = getattr(parquet_file, "metadata", None)
    for source in (getattr(schema, "metadata", None), getattr(file_meta, "metadata", None)):
        found.update({text(k): text(v) for k, v in (source or {}).items()})
    return found


def _module_missing(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is None


# What each output format needs to be read into a data frame: (module, pip package).
_READERS = {"csv": [("pandas", "pandas")], "parquet": [("pandas", "pandas"), ("pyarrow", "pyarrow")],
            "xlsx": [("pandas", "pandas"), ("openpyxl", "openpyxl")]}


def unreadable_format(output_format: str) -> Optional[str]:
    """Why this Python cannot read a file of ``output_format`` into a data frame (None when it can)."""
    missing = [package for module, package in _READERS.get(output_format, []) if _module_missing(module)]
    if not missing:
        return None
    return (f'output_format "{output_format}" needs {" and ".join(missing)}, which this Python lacks: pip install {" ".join(missing)}, '
            f'or ask for csv (leave output_format out), which needs only pandas. Nothing was charged.')


def file_kind(path: str) -> str:
    """What a downloaded file is, by its content (a name can be anything): parquet, xlsx, zip or csv."""
    with open(path, "rb") as f:
        head = f.read(4)
    if head == b"PAR1":
        return "parquet"
    if head[:2] == b"PK":
        with zipfile.ZipFile(path) as archive:
            return "xlsx" if "xl/workbook.xml" in archive.namelist() else "zip"
    return "csv"


def _reason_columns(dictionary: Dict[str, Any], columns) -> Dict[str, str]:
    """Coded column (C and its coarse companion) -> the column holding why it is empty (C_missing),
    where the file has one: as the dictionary names it, else by its name."""
    named = {c: reason for reason, c in missing_columns_of(dictionary).items()}
    out: Dict[str, str] = {}
    for v in _coded_entries(dictionary):
        reason = named.get(v["code"]) or f"{v['code']}_missing"
        if reason in columns and _missing_labels(v):
            out[v["code"]] = reason
            if v.get("coarse_column"):
                out[v["coarse_column"]] = reason
    return out


def _typed(frame, dictionary: Dict[str, Any], missing: str):
    """Every coded column a Categorical of its substantive levels (missing codes NA), ordered
    (low to high) for ordinal variables and unordered for nominal ones; every C_missing column an
    unordered Categorical of its variable's missing codes. With missing="keep", a coded column is an
    unordered Categorical of all its levels, its missing codes in place (from C_missing where the
    file has one). Files of either shape (missing codes in C, or C empty and C_missing) read alike."""
    import pandas as pd  # optional dependency

    missing_of = missing_codes_of(dictionary)
    measurement_of = measurements_of(dictionary)
    reason_of = _reason_columns(dictionary, frame.columns)
    reasons = {reason: missing_of.get(column, []) for column, reason in reason_of.items()}
    for column, categories in categories_of(dictionary).items():
        if column not in frame.columns or column in reasons:
            continue
        values = frame[column].astype("object")
        codes = set(missing_of.get(column, []))
        if missing == "keep" and codes:
            if column in reason_of:
                values = values.where(values.notna(), frame[reason_of[column]].astype("object"))
            frame[column] = pd.Categorical(values, categories=categories, ordered=False)
        else:
            substantive = [c for c in categories if c not in codes]
            ordered = measurement_of.get(column) == "ordinal"
            frame[column] = pd.Categorical(values.where(~values.isin(codes)), categories=substantive, ordered=ordered)
    for reason, codes in reasons.items():
        frame[reason] = pd.Categorical(frame[reason].astype("object"), categories=codes, ordered=False)
    return frame


def _labelled(frame, result: Optional[Dict[str, Any]], dictionary: Dict[str, Any], file_metadata: Dict[str, str]):
    """The frame's provenance and variable labels in ``frame.attrs`` (``variable_labels``: column -> description)."""
    frame.attrs.update(provenance_of(result, dictionary, file_metadata))
    labels = variable_labels_of(dictionary)
    frame.attrs["variable_labels"] = {c: labels[c] for c in frame.columns if c in labels}
    return frame


class SpqClient:
    def __init__(self, base_url: Optional[str] = None, api_key: Optional[str] = None, retries: int = 5, backoff: float = 1.0,
                 timeout: float = 120.0, on_retry: Optional[Callable[[int, int, float], None]] = None, max_backoff: float = 60.0,
                 max_retry_after: float = 60.0):
        """``base_url`` defaults to $SPQ_URL, else http://127.0.0.1:8080; ``api_key`` to $SPQ_API_KEY."""
        base_url = base_url or os.environ.get("SPQ_URL") or "http://127.0.0.1:8080"
        api_key = api_key or os.environ.get("SPQ_API_KEY")
        if not api_key:
            raise ValueError("set SPQ_API_KEY (or pass api_key): spq_live_... or spq_test_..., from your account page")
        self.base_url = base_url.rstrip("/")
        self._api_key = api_key
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_retry_after = max_retry_after
        self.timeout = timeout
        self.on_retry = on_retry

    # -------------------------------------------------------------- calls
    def preview(self, query: Dict[str, Any]) -> Dict[str, Any]:
        """Prices and checks a query; spends nothing. An invalid query is a result (valid: False)."""
        return self._call("POST", "/query/preview", body=query, accept=(422,))

    def execute(self, query: Dict[str, Any], idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """Runs a query (charges its credits), retried safely under one Idempotency-Key."""
        return self._call("POST", "/query/execute", body=query, headers={"Idempotency-Key": idempotency_key or str(uuid.uuid4())})

    def replicates(self, m: int, query: Dict[str, Any], seeds: Optional[List[Union[int, str]]] = None) -> List[Dict[str, Any]]:
        """m draws of the same query for multiple imputation, replicate i from implicate i (an
        independent synthesis of every pool, not a resample of one), each with a fresh seed, or
        with ``seeds[i - 1]`` (m sampling seeds: the same seeds give the same files again);
        each result's metadata names its implicate, synthesis seed and sampling seed. Analyse each,
        then combine with Rubin's rules (docs/multiple-imputation.md). Costs what m executes cost.
        A release holding fewer than m implicates answers ValidationError naming those it holds."""
        if m < 1:
            raise ValueError("m must be at least 1")
        if "implicate" in query:
            raise ValueError("replicates chooses the implicates (1..m); leave implicate out of the query")
        if seeds is not None and len(seeds) != m:
            raise ValueError(f"seeds must hold m = {m} seeds, one per replicate; got {len(seeds)}")
        # Checked first (a preview spends nothing): never charge for some replicates and then fail.
        self._call("POST", "/query/preview", body={**query, "implicate": m})
        seeded = [{"seed": str(seeds[i - 1])} if seeds is not None else {} for i in range(1, m + 1)]
        return [self.execute({**query, "implicate": i, **seeded[i - 1]}) for i in range(1, m + 1)]

    def history(self, page: Optional[int] = None, per_page: Optional[int] = None, dataset_type: Optional[str] = None) -> Dict[str, Any]:
        params = {k: v for k, v in (("page", page), ("per_page", per_page), ("dataset_type", dataset_type)) if v is not None}
        return self._call("GET", "/query/history" + (("?" + urllib.parse.urlencode(params)) if params else ""))

    def history_items(self, per_page: int = 100, dataset_type: Optional[str] = None) -> Iterator[Dict[str, Any]]:
        """Every history item, newest first, page after page."""
        page = 1
        while True:
            result = self.history(page=page, per_page=per_page, dataset_type=dataset_type)
            yield from result["queries"]
            if page >= result["pagination"]["total_pages"]:
                return
            page += 1

    def query(self, query_id: str) -> Dict[str, Any]:
        return self._call("GET", "/query/" + urllib.parse.quote(query_id, safe=""))

    def credits(self) -> Dict[str, Any]:
        return self._call("GET", "/account/credits")

    def search(self, term: str, level: Optional[str] = None, state: Optional[str] = None, limit: Optional[int] = None) -> Dict[str, Any]:
        params = {k: v for k, v in (("query", term), ("level", level), ("state", state), ("limit", limit)) if v is not None}
        return self._call("GET", "/geography/search?" + urllib.parse.urlencode(params))

    def variables(self, suburb_id: str, dataset_type: str = "persons") -> Dict[str, Any]:
        return self._call("GET", f"/geography/{urllib.parse.quote(suburb_id, safe='')}/variables?dataset_type={dataset_type}")

    def download(self, target: Union[Dict[str, Any], str], path: str,
                 on_progress: Optional[Callable[[int, Optional[int]], None]] = None) -> str:
        """Streams a result file (or a dictionary_url) to ``path``; the file appears only when complete."""
        url = target if isinstance(target, str) else target["download_url"]
        response = self._send("GET", url, authorised=False)
        total = response.headers.get("Content-Length")
        total_bytes = int(total) if total is not None else None
        partial = path + ".part"
        done = 0
        try:
            with response, open(partial, "wb") as out:
                while True:
                    chunk = response.read(1 << 16)
                    if not chunk:
                        break
                    out.write(chunk)
                    done += len(chunk)
                    if on_progress:
                        on_progress(done, total_bytes)
            os.replace(partial, path)
        except BaseException:
            if os.path.exists(partial):
                os.remove(partial)
            raise
        return path

    def dictionary(self, result: Dict[str, Any], path: Optional[str] = None) -> Dict[str, Any]:
        """The file's dictionary: the csv's second download (dictionary_url); for parquet, read
        ``dictionary`` from the file's key-value metadata instead (``to_dataframe`` does)."""
        url = result.get("dictionary_url")
        if not url:
            raise ValueError("only csv results have a dictionary_url; parquet and xlsx carry their dictionary inside")
        response = self._send("GET", url, authorised=False)
        with response:
            data = json.loads(response.read().decode("utf-8"))
        if path:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f)
        return data

    # -------------------------------------------------------------- data frames
    def dataframe(self, query: Dict[str, Any], missing: str = "na", idempotency_key: Optional[str] = None):
        """Runs a query and reads its file in one call: a labelled DataFrame (``to_dataframe``), or
        for ``linked_records="household"`` the dict of linked frames (``to_dataframes``). The file is
        csv unless the query names a format; it is read from a temporary folder and not kept
        (``execute`` + ``download`` keep it). Charges the query's credits like ``execute``; a format
        this Python cannot read (parquet without pyarrow, xlsx without openpyxl) is refused first,
        before anything is charged (``unreadable_format``)."""
        import tempfile

        query = {"output_format": "csv", **query}
        # Before any charge: a file this Python cannot read is refused, naming what would read it.
        unreadable = unreadable_format(query["output_format"])
        if unreadable:
            raise ValueError(f"dataframe(): {unreadable}")
        result = self.execute(query, idempotency_key=idempotency_key)
        with tempfile.TemporaryDirectory() as tmp:
            path = self.download(result, os.path.join(tmp, "result"))
            if file_kind(path) == "zip":
                return self.to_dataframes(path, missing=missing, result=result)
            dictionary = self.dictionary(result) if result.get("dictionary_url") else None
            return self.to_dataframe(path, dictionary, missing=missing, result=result)

    @staticmethod
    def to_dataframe(path: str, dictionary: Optional[Dict[str, Any]] = None, missing: str = "na",
                     result: Optional[Dict[str, Any]] = None):
        """A pandas DataFrame of a downloaded csv or parquet file: ids and geography as text (leading
        zeros kept), every coded column a Categorical of its substantive levels: *ordered* (low to
        high) for the dictionary's ordinal variables (age, income, schooling, …), so that a
        comparison or ``max()`` never lands on "Not stated", and unordered for nominal ones (sex,
        birthplace, occupation, …); joined columns (``dwelling_*``, ``family_*``) alike.
        ``frame.attrs`` holds the provenance (``provenance_of``: query_id, seed, implicate,
        release_version, fitted_to, fitted_to_text; from ``result`` when given, else from the
        file's dictionary and metadata) and ``variable_labels`` (column -> description).
        ``missing="na"`` (default): the missing-value codes the dictionary marks ("Not stated",
        "Not applicable", "Partial income stated", …) are NA, and a ``C_missing`` column beside C
        (where the file has one) is an unordered Categorical naming each record's missing code.
        ``missing="keep"``: they stay in C, as levels of an *unordered* Categorical (pandas cannot
        order only some levels). Files written before ``C_missing`` (missing codes in C) read alike.
        A csv needs its dictionary (``dictionary(result)``); a parquet file carries its own
        (read from the file's key-value metadata, else the Arrow schema's)."""
        if missing not in ("na", "keep"):
            raise ValueError('missing must be "na" or "keep"')
        kind = file_kind(path)
        if kind == "zip":
            raise ValueError("a household zip holds several linked files: read it with to_dataframes(path)")
        if kind == "xlsx":
            return SpqClient._xlsx_dataframe(path, missing, result)
        import pandas as pd  # optional dependency

        if kind == "parquet":
            if _module_missing("pyarrow"):
                raise ValueError(f"{path} is parquet, which needs pyarrow: pip install pyarrow (or ask for csv)")
            import pyarrow.parquet as pq  # optional dependency

            parquet = pq.ParquetFile(path)
            file_metadata = parquet_key_value_metadata(parquet)
            if dictionary is None and "dictionary" in file_metadata:
                dictionary = json.loads(file_metadata["dictionary"])
            file_metadata.pop("dictionary", None)
            frame = parquet.read().to_pandas()
        else:
            # keep_default_na=False: no label turns into NaN; only empty cells are missing.
            frame = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""])
            file_metadata = {}
        if dictionary is None:
            raise ValueError(f"no dictionary for {path}: pass dictionary(result) for a csv file")
        return _labelled(_typed(frame, dictionary, missing), result, dictionary, file_metadata)

    @staticmethod
    def to_dataframes(path: str, missing: str = "na", result: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """A household zip (linked_records "household") as {"dwellings": …, "families": …, "persons": …}:
        one data frame per file, typed like ``to_dataframe``, the id columns intact so that
        persons.merge(dwellings, on="dwelling_id") links them. A single file gives a one-entry dict."""
        import tempfile

        if file_kind(path) != "zip":
            return {"records": SpqClient.to_dataframe(path, missing=missing, result=result)}
        out: Dict[str, Any] = {}
        with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(path) as archive:
            archive.extractall(tmp)
            names = archive.namelist()
            for name in names:
                if name.endswith(".json"):
                    continue
                dataset = next((d for d in ("dwellings", "families", "persons") if f"-{d}" in name), name)
                member = os.path.join(tmp, name)
                dictionary = None
                sidecar = next((n for n in names if n.endswith(".json") and f"-{dataset}" in n), None)
                if sidecar:
                    with open(os.path.join(tmp, sidecar), encoding="utf-8") as f:
                        dictionary = json.load(f)
                out[dataset] = SpqClient.to_dataframe(member, dictionary, missing=missing, result=result)
        return out

    @staticmethod
    def _xlsx_dataframe(path: str, missing: str, result: Optional[Dict[str, Any]] = None):
        """The xlsx file's data sheet (the first), typed by its own dictionary sheet."""
        import pandas as pd  # optional dependency

        sheets = pd.read_excel(path, sheet_name=None, dtype=str, keep_default_na=False, na_values=[""])
        names = list(sheets)
        frame = sheets[names[0]]
        variables: Dict[str, Dict[str, Any]] = {}
        for _, row in sheets.get("dictionary", pd.DataFrame()).iterrows():
            v = variables.setdefault(row["code"], {"code": row["code"], "categories": [], "measurement": row.get("measurement") or "nominal",
                                                   "missing": {"not_applicable": [], "non_response": [], "partial_response": []}})
            v["categories"].append(row["label"])
            kind = row.get("missing")
            if isinstance(kind, str) and kind in v["missing"]:
                v["missing"][kind].append(row["label"])
        file_metadata = {}
        if "metadata" in sheets:
            file_metadata = {str(row["key"]): str(row["value"]) for _, row in sheets["metadata"].iterrows()}
        columns = [{"name": str(row["name"]), "kind": str(row["kind"]), "description": str(row["description"])}
                   for _, row in sheets.get("columns", pd.DataFrame()).iterrows()]
        dictionary = {"variables": list(variables.values()), "columns": columns}
        return _labelled(_typed(frame, dictionary, missing), result, dictionary, file_metadata)

    # -------------------------------------------------------------- transport
    def _call(self, method: str, path: str, body: Any = None, headers: Optional[Dict[str, str]] = None, accept=()) -> Dict[str, Any]:
        try:
            response = self._send(method, self.base_url + path, body=body, headers=headers)
        except SpqError as error:
            if error.status in accept and isinstance(error.body, dict):
                return error.body
            raise
        with response:
            return json.loads(response.read().decode("utf-8"))

    def _send(self, method: str, url: str, body: Any = None, headers: Optional[Dict[str, str]] = None, authorised: bool = True):
        data = json.dumps(body).encode("utf-8") if body is not None else None
        all_headers = dict(headers or {})
        if authorised:
            all_headers["Authorization"] = f"Bearer {self._api_key}"
        if data is not None:
            all_headers["Content-Type"] = "application/json"
        attempt = 0
        while True:
            request = urllib.request.Request(url, data=data, method=method, headers=all_headers)
            status = 0
            retry_after = None
            try:
                return urllib.request.urlopen(request, timeout=self.timeout)
            except urllib.error.HTTPError as error:
                status = error.code
                if status not in RETRY_STATUSES or attempt >= self.retries:
                    raise self._error_of(error) from None
                retry_after = retry_after_seconds(error.headers.get("Retry-After")) if status == 429 else None
                # A wait longer than the caller allows is theirs to decide on: raise it instead of blocking.
                if retry_after is not None and retry_after > self.max_retry_after:
                    raise self._error_of(error) from None
                error.close()
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if attempt >= self.retries:
                    raise
            wait = retry_after if retry_after is not None else backoff_seconds(attempt, self.backoff, self.max_backoff)
            attempt += 1
            if self.on_retry:
                self.on_retry(attempt, status, wait)
            time.sleep(wait)

    @staticmethod
    def _error_of(error: urllib.error.HTTPError) -> SpqError:
        text = error.read().decode("utf-8", errors="replace")
        try:
            body: Any = json.loads(text)
        except ValueError:
            body = text
        b = body if isinstance(body, dict) else {}
        detail = str(b.get("detail") or b.get("message") or text or error.reason)
        code = b.get("error") if isinstance(b.get("error"), str) else None
        kind = code or CODE_OF_STATUS.get(error.code)
        request_id = error.headers.get("X-Request-Id")
        if kind == "rate_limited":
            return RateLimitError(error.code, code, detail, request_id, body, retry_after_seconds(error.headers.get("Retry-After")))
        return ERROR_CLASSES.get(kind or "", SpqError)(error.code, code, detail, request_id, body)
