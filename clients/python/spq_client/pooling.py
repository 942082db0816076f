"""Rubin's rules (docs/multiple-imputation.md): ``pool`` combines one estimate over m replicates,
or a whole model's coefficients (vectors with their covariance matrices, or fitted statsmodels
results), per coefficient as ``mice::pool`` does. Standard library only."""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Sequence


def _t_cdf(t: float, df: float) -> float:
    """Student's t distribution function (df may be fractional or infinite)."""
    if math.isinf(df):
        return 0.5 * (1 + math.erf(t / math.sqrt(2)))
    x = df / (df + t * t)
    tail = 0.5 * _incomplete_beta(df / 2, 0.5, x)
    return 1 - tail if t > 0 else tail


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b) (continued fraction, Lentz)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x))
    if x > (a + 1) / (a + b + 2):
        return 1 - _incomplete_beta(b, a, 1 - x)
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    f = d
    for i in range(1, 400):
        for numerator in (i * (b - i) * x / ((a + 2 * i - 1) * (a + 2 * i)), -(a + i) * (a + b + i) * x / ((a + 2 * i) * (a + 2 * i + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            f *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return front * f / a


def _t_quantile(p: float, df: float) -> float:
    """The p quantile of Student's t (bisection on _t_cdf; p in (0, 1))."""
    lo, hi = -1e3, 1e3
    for _ in range(200):
        mid = (lo + hi) / 2
        if _t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _is_model(x: Any) -> bool:
    return hasattr(x, "params") and callable(getattr(x, "cov_params", None))


def _is_number(x: Any) -> bool:
    try:
        float(x)
    except (TypeError, ValueError):
        return False
    return not isinstance(x, (str, bytes))


def pool(estimates, variances=None, df_complete: Optional[float] = None, level: float = 0.95) -> Dict[str, Any]:
    """Rubin's rules over m replicates.

    One estimate: ``pool(estimates, variances)`` with the m estimates Q_i and their variances U_i:
    q_bar = mean Q_i; w = mean U_i; b = var(Q_i) (m - 1 denominator); t = w + (1 + 1/m) b;
    df by Rubin's classic formula (m - 1)(1 + 1/r)^2, r = (1 + 1/m) b / w, or, given the analysis's
    complete-data degrees of freedom ``df_complete``, the Barnard-Rubin (1999) small-sample df;
    ci: q_bar -+ t_{df, (1 + level)/2} sqrt(t). Also m, r (relative increase in variance) and
    lambda_ ((1 + 1/m) b / t, the share of the variance due to the synthesis).

    A whole model: ``pool(fits)`` with m fitted models (anything with ``.params`` and
    ``.cov_params()``, such as statsmodels results; the first one's ``df_resid`` is the
    complete-data df unless ``df_complete`` says otherwise, as mice takes it), or ``pool(coefficients, covariances)`` with m
    coefficient vectors and m covariance matrices: see ``pool_model``."""
    items = list(estimates)
    if items and (_is_model(items[0]) or not _is_number(items[0])):
        return pool_model(items, variances, df_complete=df_complete, level=level)
    if variances is None:
        raise ValueError("pool needs the estimates' variances: pool(estimates, variances), or fitted models: pool(fits)")
    us = list(variances)
    if any(not _is_number(u) for u in us):
        raise ValueError("pool(estimates, variances): estimates are numbers, so variances must be numbers too (one per estimate); "
                         "for a model give m coefficient vectors and m covariance matrices")
    qs = [float(q) for q in items]
    us = [float(u) for u in us]
    m = len(qs)
    if m < 2 or len(us) != m:
        raise ValueError(f"pool needs at least 2 estimates and one variance for each; got {m} estimates and {len(us)} variances")
    q_bar = sum(qs) / m
    w = sum(us) / m
    b = sum((q - q_bar) ** 2 for q in qs) / (m - 1)
    t = w + (1 + 1 / m) * b
    r = (1 + 1 / m) * b / w if w > 0 else math.inf
    lam = (1 + 1 / m) * b / t if t > 0 else 0.0
    df = (m - 1) * (1 + 1 / r) ** 2 if b > 0 else math.inf
    if df_complete is not None:
        observed = (df_complete + 1) / (df_complete + 3) * df_complete * (1 - lam)
        df = 1 / (1 / df + 1 / observed) if observed > 0 else df
    half = _t_quantile((1 + level) / 2, df) * math.sqrt(t) if t > 0 else 0.0
    return {"q_bar": q_bar, "w": w, "b": b, "t": t, "df": df, "ci": (q_bar - half, q_bar + half),
            "m": m, "r": r, "lambda_": lam, "level": level, "df_method": "barnard-rubin" if df_complete is not None else "rubin"}


def _model_inputs(items: List[Any], covariances) -> tuple:
    """(terms, coefficient vectors, covariance matrices, complete-data df or None) of m fits or m vector/matrix pairs."""
    if _is_model(items[0]):
        if covariances is not None:
            raise ValueError("pool(fits) takes fitted models alone: leave the covariances out (each fit gives its cov_params())")
        if not all(_is_model(f) for f in items):
            raise ValueError("pool(fits): every fit must have .params and .cov_params()")
        params = [f.params for f in items]
        terms = _terms(params[0])
        vectors = [[float(x) for x in list(p)] for p in params]
        matrices = [_rows(f.cov_params()) for f in items]
        # The first fit's residual df, as mice takes it (fits to replicates of one size have the same).
        first = getattr(items[0], "df_resid", None)
        return terms, vectors, matrices, (float(first) if first is not None else None)
    if covariances is None:
        raise ValueError("pool(coefficients, covariances): give one covariance matrix per coefficient vector")
    vectors = [[float(x) for x in list(v)] for v in items]
    matrices = [_rows(c) for c in covariances]
    terms = _terms(items[0])
    return terms, vectors, matrices, None


def _terms(vector) -> List[str]:
    """A coefficient vector's names (a pandas Series' index), else their positions "1", "2", …"""
    names = getattr(vector, "index", None)
    return [str(t) for t in names] if names is not None and not callable(names) else [str(i + 1) for i in range(len(vector))]


def _rows(matrix) -> List[List[float]]:
    """A matrix (list of rows, numpy array or pandas DataFrame) as a list of float rows."""
    values = getattr(matrix, "values", matrix)
    try:
        return [[float(x) for x in row] for row in values]
    except TypeError:
        raise ValueError("a covariance must be a square matrix (rows of numbers), not a single number") from None


def _check_shapes(vectors: List[List[float]], matrices: List[List[List[float]]]) -> int:
    m = len(vectors)
    if m < 2:
        raise ValueError(f"pool needs the fits of at least 2 replicates; got {m}")
    if len(matrices) != m:
        raise ValueError(f"pool needs one covariance matrix per coefficient vector; got {m} vectors and {len(matrices)} matrices")
    p = len(vectors[0])
    if p == 0 or any(len(v) != p for v in vectors):
        raise ValueError(f"every coefficient vector must have the same length; got lengths {[len(v) for v in vectors]}")
    for i, c in enumerate(matrices, 1):
        if len(c) != p or any(len(row) != p for row in c):
            raise ValueError(f"covariance matrix {i} is {len(c)} x {len(c[0]) if c else 0}; it must be {p} x {p}, one row and column per coefficient")
    return p


def pool_model(estimates: Sequence[Any], covariances=None, df_complete: Optional[float] = None, level: float = 0.95) -> Dict[str, Any]:
    """Rubin's rules for a whole model, per coefficient, as ``mice::pool`` computes them: for m fits
    (or m coefficient vectors Q_i and covariance matrices U_i), each coefficient's estimate
    (mean Q_i), ubar (mean of its variances), b (variance of its estimates), t = ubar + (1 + 1/m) b,
    df (Barnard-Rubin 1999 with the complete-data df ``dfcom``: ``df_complete``, else the fits'
    first fit's ``df_resid``, else infinite, which gives Rubin's (m - 1) / lambda^2; lambda is floored at 1e-4
    as mice does), riv = (1 + 1/m) b / ubar, lambda = (1 + 1/m) b / t, fmi = (riv + 2 / (df + 3)) /
    (riv + 1), the confidence interval at ``level``, and the total covariance matrix
    (mean U_i + (1 + 1/m) B, B the covariance of the Q_i) as ``covariance``."""
    items = list(estimates)
    if not items:
        raise ValueError("pool needs the fits of at least 2 replicates; got none")
    terms, vectors, matrices, fitted_df = _model_inputs(items, None if covariances is None else list(covariances))
    p = _check_shapes(vectors, matrices)
    m = len(vectors)
    dfcom = float(df_complete) if df_complete is not None else (fitted_df if fitted_df is not None else math.inf)
    mean = [sum(v[j] for v in vectors) / m for j in range(p)]
    ubar = [[sum(c[j][k] for c in matrices) / m for k in range(p)] for j in range(p)]
    between = [[sum((v[j] - mean[j]) * (v[k] - mean[k]) for v in vectors) / (m - 1) for k in range(p)] for j in range(p)]
    total = [[ubar[j][k] + (1 + 1 / m) * between[j][k] for k in range(p)] for j in range(p)]
    rows = []
    for j, term in enumerate(terms):
        u, b, t = ubar[j][j], between[j][j], total[j][j]
        lam = (1 + 1 / m) * b / t if t > 0 else 0.0
        riv = (1 + 1 / m) * b / u if u > 0 else math.inf
        df = _barnard_rubin(m, lam, dfcom)
        half = _t_quantile((1 + level) / 2, df) * math.sqrt(t) if t > 0 else 0.0
        rows.append({"term": term, "estimate": mean[j], "ubar": u, "b": b, "t": t, "df": df, "riv": riv, "lambda_": lam,
                     "fmi": (riv + 2 / (df + 3)) / (riv + 1), "ci": (mean[j] - half, mean[j] + half)})
    return {"m": m, "dfcom": dfcom, "level": level, "terms": rows, "covariance": total}


def _barnard_rubin(m: int, lam: float, dfcom: float) -> float:
    """mice's barnard.rubin(): lambda floored at 1e-4; Rubin's (m - 1) / lambda^2 when dfcom is infinite."""
    lam = max(lam, 1e-4)
    old = (m - 1) / lam ** 2
    if math.isinf(dfcom):
        return old
    observed = (dfcom + 1) / (dfcom + 3) * dfcom * (1 - lam)
    return old * observed / (old + observed)
