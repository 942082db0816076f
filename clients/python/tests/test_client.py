"""Tests of the Python client: against a running spq server (SPQ_BASE_URL, SPQ_API_KEY; the
repository's test suite starts one, test/clients/python.test.ts), and a few offline ones."""

import http.server
import json
import os
import sys
import tempfile
import threading
import time
import unittest

if not os.environ.get("SPQ_CLIENT_INSTALLED"):  # the source tree, unless testing an installed package
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from spq_client import (  # noqa: E402
    GoneError, InsufficientCreditsError, NotFoundError, RateLimitError, ServiceUnavailableError, SpqClient, SpqError,
    UnauthorizedError, ValidationError, backoff_seconds, categories_of, file_kind, parquet_key_value_metadata, pool, retry_after_seconds,
    unreadable_format,
)

BASE = os.environ.get("SPQ_BASE_URL")
KEY = os.environ.get("SPQ_API_KEY")
QUERY = {"geography_level": "suburb", "geography_selections": ["Fitzroy"], "dataset_type": "persons",
         "n_observations": 60, "output_format": "csv"}

try:
    import pandas  # noqa: F401
    HAVE_PANDAS = True
except ImportError:
    HAVE_PANDAS = False

# Hand-made files and the mice fixture (test/clients/fixtures): from the repository, or where the suite says.
FIXTURES = os.environ.get("SPQ_CLIENT_FIXTURES") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "test", "clients", "fixtures")
HAVE_FIXTURES = os.path.isdir(FIXTURES)


@unittest.skipUnless(BASE and KEY, "needs SPQ_BASE_URL and SPQ_API_KEY (a running server)")
class AgainstServer(unittest.TestCase):
    def setUp(self):
        self.spq = SpqClient(BASE, KEY, backoff=0.01)
        self.dir = tempfile.mkdtemp()

    def test_preview_execute_download_history_credits(self):
        self.assertIn("Fitzroy", [r["suburb_id"] for r in self.spq.search("fitz")["results"]])
        preview = self.spq.preview(QUERY)
        self.assertTrue(preview["valid"])
        before = self.spq.credits()["credits_remaining"]
        result = self.spq.execute(QUERY)
        seen = []
        path = self.spq.download(result, os.path.join(self.dir, "f.csv"), on_progress=lambda done, total: seen.append(done))
        with open(path, encoding="utf-8") as f:
            self.assertEqual(len(f.read().strip().split("\n")), 61)
        self.assertEqual(seen[-1], os.path.getsize(path))
        dictionary = self.spq.dictionary(result)
        self.assertEqual(dictionary["metadata"]["query_id"], result["query_id"])
        self.assertIn(result["query_id"], [q["query_id"] for q in self.spq.history()["queries"]])
        self.assertEqual(self.spq.query(result["query_id"])["credit_cost"], result["credit_cost"])
        self.assertEqual(self.spq.credits()["credits_remaining"], before - result["credit_cost"])

    def test_invalid_preview_is_a_result_and_errors_carry_code_and_request_id(self):
        self.assertFalse(self.spq.preview({**QUERY, "geography_selections": ["Fitzroyy"]})["valid"])
        with self.assertRaises(SpqError) as caught:
            self.spq.execute({**QUERY, "geography_selections": ["Fitzroyy"]})
        self.assertEqual((caught.exception.status, caught.exception.code), (422, "validation_error"))
        self.assertTrue(caught.exception.request_id)

    def test_replicates_draw_each_from_its_own_implicate(self):
        before = self.spq.credits()["credits_remaining"]
        single = self.spq.execute(QUERY)
        draws = self.spq.replicates(5, QUERY)
        self.assertEqual(len({d["query_id"] for d in draws}), 5)
        self.assertEqual([d["metadata"]["implicate"] for d in draws], [1, 2, 3, 4, 5])
        self.assertEqual(len({d["metadata"]["synthesis_seed"] for d in draws}), 5)
        self.assertEqual(len({d["metadata"]["seed"] for d in draws}), 5)
        # m = 5 draws cost what 5 single draws cost.
        self.assertEqual(sum(d["credit_cost"] for d in draws), 5 * single["credit_cost"])
        self.assertEqual(self.spq.credits()["credits_remaining"], before - 6 * single["credit_cost"])

    def test_seed_and_implicate_give_the_same_records_back(self):
        first = self.spq.execute(dict(QUERY, implicate=2))
        again = self.spq.execute(dict(QUERY, implicate=2, seed=first["metadata"]["seed"]))
        other = self.spq.execute(dict(QUERY, implicate=3, seed=first["metadata"]["seed"]))
        read = lambda r, name: open(self.spq.download(r, os.path.join(self.dir, name)), encoding="utf-8").read()
        self.assertEqual(read(first, "a.csv"), read(again, "b.csv"))
        self.assertNotEqual(read(first, "a.csv"), read(other, "c.csv"))

    def test_replicates_beyond_the_implicates_held_is_a_validation_error(self):
        with self.assertRaises(ValidationError) as caught:
            self.spq.replicates(6, QUERY)
        self.assertIn("implicates 1, 2, 3, 4, 5", str(caught.exception))

    @unittest.skipUnless(HAVE_PANDAS, "pandas is not installed (Debian: python3-pandas)")
    def test_to_dataframe_orders_substantive_levels_and_missing_codes_are_na(self):
        query = dict(QUERY, n_observations=200)
        result = self.spq.execute(query)
        path = self.spq.download(result, os.path.join(self.dir, "missing.csv"))
        dictionary = self.spq.dictionary(result)
        frame = self.spq.to_dataframe(path, dictionary)
        # Income: "Not stated" and "Not applicable" are NA, not the top of the order.
        self.assertNotIn("Not stated", list(frame["INCP"].cat.categories))
        self.assertNotIn("Not applicable", list(frame["INCP"].cat.categories))
        self.assertTrue(frame["INCP"].cat.ordered)
        self.assertNotIn(frame["INCP"].max(), ("Not stated", "Not applicable"))
        raw = pandas.read_csv(path, dtype=str, keep_default_na=False)
        # The file leaves INCP empty where it is missing (the code in INCP_missing) or coarse (a small suburb's).
        self.assertEqual(int(frame["INCP"].isna().sum()), int((raw["INCP"] == "").sum()))
        self.assertEqual(int(frame["INCP_missing"].notna().sum()), int(raw["INCP_missing"].isin(["Not stated", "Not applicable"]).sum()))
        self.assertGreater(int(frame["INCP"].isna().sum()), 0)  # children have "Not applicable"
        kept = self.spq.to_dataframe(path, dictionary, missing="keep")
        self.assertFalse(kept["INCP"].cat.ordered)
        self.assertIn("Not applicable", list(kept["INCP"].cat.categories))
        self.assertEqual(int(kept["INCP"].isna().sum()), 0)

    @unittest.skipUnless(HAVE_PANDAS, "pandas is not installed (Debian: python3-pandas)")
    def test_joined_columns_read_like_own_variables(self):
        result = self.spq.execute(dict(QUERY, n_observations=100, linked_records="joined"))
        path = self.spq.download(result, os.path.join(self.dir, "joined.csv"))
        dictionary = self.spq.dictionary(result)
        frame = self.spq.to_dataframe(path, dictionary)
        raw = pandas.read_csv(path, dtype=str, keep_default_na=False)
        linked = [v for v in dictionary["linked_variables"] if v["column"] in frame.columns]
        self.assertTrue(any(v["column"] == "dwelling_RNTRD" for v in linked))
        for v in linked:
            column = v["column"]
            series = frame[column]
            # Whichever shape the server writes: no missing code is a level, and every empty or missing value is NA.
            self.assertFalse({"Not applicable", "Not stated", "Partial income stated"} & set(series.cat.categories), column)
            self.assertEqual(int(series.isna().sum()), int((~raw[column].isin(list(series.cat.categories))).sum()), column)
            self.assertEqual(series.cat.ordered, v.get("measurement") == "ordinal", column)
        self.assertGreater(int(frame["dwelling_RNTRD"].isna().sum()), 0)  # owners pay no rent: "Not applicable"

    @unittest.skipUnless(HAVE_PANDAS, "pandas is not installed (Debian: python3-pandas)")
    def test_readers_choose_by_content_xlsx_and_household_zips(self):
        xlsx = self.spq.execute(dict(QUERY, output_format="xlsx", n_observations=30))
        path = self.spq.download(xlsx, os.path.join(self.dir, "no-extension"))
        self.assertEqual(file_kind(path), "xlsx")
        frame = self.spq.to_dataframe(path)
        self.assertEqual(len(frame), 30)
        self.assertTrue(frame["AGE5P"].cat.ordered)
        self.assertNotIn("Not applicable", list(frame["INCP"].cat.categories))
        self.assertTrue(frame["person_id"].str.match(r"^P\d{9}$").all())
        household = self.spq.execute({"geography_level": "suburb", "geography_selections": ["Fitzroy"], "dataset_type": "dwellings",
                                      "n_observations": 5, "output_format": "csv", "linked_records": "household"})
        zipped = self.spq.download(household, os.path.join(self.dir, "household.bin"))
        self.assertEqual(file_kind(zipped), "zip")
        frames = self.spq.to_dataframes(zipped)
        self.assertEqual(sorted(frames), ["dwellings", "families", "persons"])
        self.assertEqual(len(frames["dwellings"]), 5)
        # The keys link: every person's dwelling is among the dwellings drawn.
        self.assertTrue(frames["persons"]["dwelling_id"].isin(frames["dwellings"]["dwelling_id"]).all())
        self.assertTrue(frames["persons"]["AGE5P"].cat.ordered)
        with self.assertRaises(ValueError):
            self.spq.to_dataframe(zipped)

    @unittest.skipUnless(HAVE_PANDAS, "pandas is not installed (Debian: python3-pandas)")
    def test_dataframe_runs_a_query_into_a_labelled_frame_in_one_call(self):
        before = self.spq.credits()["credits_remaining"]
        seen = {q["query_id"] for q in self.spq.history_items()}
        frame = self.spq.dataframe({k: v for k, v in QUERY.items() if k != "output_format"})
        self.assertEqual(len(frame), QUERY["n_observations"])
        self.assertTrue(frame["AGE5P"].cat.ordered)
        self.assertNotIn("Not stated", list(frame["INCP"].cat.categories))
        [ran] = [q for q in self.spq.history_items() if q["query_id"] not in seen]
        self.assertIn("dictionary_url", ran)  # csv, the format it asks for when the query names none
        self.assertEqual(self.spq.credits()["credits_remaining"], before - ran["credit_cost"])
        frames = self.spq.dataframe({**QUERY, "dataset_type": "dwellings", "n_observations": 3, "linked_records": "household"})
        self.assertEqual(sorted(frames), ["dwellings", "families", "persons"])
        self.assertTrue(frames["persons"]["dwelling_id"].isin(frames["dwellings"]["dwelling_id"]).all())

    @unittest.skipUnless(HAVE_PANDAS, "pandas is not installed (Debian: python3-pandas)")
    def test_to_dataframe_gives_ordered_categoricals_and_text_ids(self):
        result = self.spq.execute(QUERY)
        path = self.spq.download(result, os.path.join(self.dir, "df.csv"))
        frame = self.spq.to_dataframe(path, self.spq.dictionary(result))
        self.assertTrue(frame["AGE5P"].cat.ordered)
        self.assertEqual(list(frame["AGE5P"].cat.categories[:2]), ["0-4 years", "5-9 years"])
        self.assertTrue(frame["person_id"].str.startswith("P").all())

    @unittest.skipUnless(HAVE_PANDAS, "pandas is not installed (Debian: python3-pandas)")
    def test_nominal_variables_are_unordered_ordinal_ones_run_low_to_high_and_frames_carry_provenance(self):
        result = self.spq.execute(dict(QUERY, n_observations=200, implicate=2))
        path = self.spq.download(result, os.path.join(self.dir, "levels.csv"))
        frame = self.spq.to_dataframe(path, self.spq.dictionary(result), result=result)
        for nominal in ("SEXP", "BPLP", "RELP", "OCCP", "INDP", "MTWP"):
            self.assertFalse(frame[nominal].cat.ordered, nominal)
        for ordinal in ("AGE5P", "INCP", "HEAP", "HSCP", "ENGLP"):
            self.assertTrue(frame[ordinal].cat.ordered, ordinal)
        heap = list(frame["HEAP"].cat.categories)
        self.assertEqual(heap[-3:], ["Bachelor Degree Level", "Graduate Diploma and Graduate Certificate Level", "Postgraduate Degree Level"])
        above = frame["HEAP"] >= "Bachelor Degree Level"
        self.assertEqual(set(frame["HEAP"][above].dropna().unique()) - set(heap[-3:]), set())
        self.assertEqual(list(frame["HSCP"].cat.categories)[-1], "Year 12 or equivalent")
        # Employed whose hours are not stated are employed, not missing.
        self.assertIn("Employed, hours of work not stated", list(frame["LFSP"].cat.categories))
        provenance = {"query_id": result["query_id"], "seed": result["metadata"]["seed"], "implicate": 2,
                      "release_version": result["metadata"]["version"], "fitted_to": result["metadata"]["fitted_to"]}
        self.assertEqual({k: frame.attrs[k] for k in provenance}, provenance)
        self.assertTrue(frame.attrs["fitted_to_text"].startswith(result["metadata"]["fitted_to"] + ":"))
        # Without result=, the csv's dictionary says the same.
        bare = self.spq.to_dataframe(path, self.spq.dictionary(result))
        self.assertEqual({k: bare.attrs[k] for k in provenance}, provenance)
        self.assertEqual(bare.attrs["variable_labels"]["person_id"][:17], "The person record")
        self.assertIn("HEAP", bare.attrs["variable_labels"])
        parquet = self.spq.execute(dict(QUERY, output_format="parquet", implicate=3))
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            return
        typed = self.spq.to_dataframe(self.spq.download(parquet, os.path.join(self.dir, "levels.parquet")))
        self.assertEqual(typed.attrs["implicate"], 3)
        self.assertEqual(typed.attrs["seed"], parquet["metadata"]["seed"])

    def test_replicates_with_seeds_give_the_same_files_again(self):
        seeds = [11, 12, 13]
        first = self.spq.replicates(3, QUERY, seeds=seeds)
        again = self.spq.replicates(3, QUERY, seeds=[str(s) for s in seeds])
        self.assertEqual([r["metadata"]["seed"] for r in first], ["11", "12", "13"])
        read = lambda r, name: open(self.spq.download(r, os.path.join(self.dir, name)), encoding="utf-8").read()
        for i, (a, b) in enumerate(zip(first, again)):
            self.assertEqual(read(a, f"r{i}a.csv"), read(b, f"r{i}b.csv"))
        with self.assertRaises(ValueError):
            self.spq.replicates(3, QUERY, seeds=[1, 2])


@unittest.skipUnless(HAVE_PANDAS and HAVE_FIXTURES, "needs pandas and test/clients/fixtures (SPQ_CLIENT_FIXTURES)")
class FileShapes(unittest.TestCase):
    """Hand-made files (test/clients/fixtures): the representation of issue 38 (C holds substantive
    categories, C_missing the missing code) and files written before it read to the same values."""

    def read(self, name, missing="na"):
        with open(os.path.join(FIXTURES, f"{name}.csv.dictionary.json"), encoding="utf-8") as f:
            dictionary = json.load(f)
        return SpqClient.to_dataframe(os.path.join(FIXTURES, f"{name}.csv"), dictionary, missing=missing)

    def test_both_shapes_read_to_the_same_values(self):
        for name in ("new-shape", "old-shape"):
            frame = self.read(name)
            self.assertEqual(list(frame["HEAP"].cat.categories), ["Certificate Level", "Advanced Diploma and Diploma Level",
                                                                   "Bachelor Degree Level", "Postgraduate Degree Level"], name)
            self.assertTrue(frame["HEAP"].cat.ordered)
            self.assertEqual(int(frame["HEAP"].isna().sum()), 3, name)
            self.assertEqual(int((frame["HEAP"] >= "Bachelor Degree Level").sum()), 2, name)
            self.assertEqual(frame["HEAP"].max(), "Postgraduate Degree Level")
            self.assertEqual(int(frame["INCP"].isna().sum()), 4, name)
            self.assertEqual(int(frame["INCP_coarse"].isna().sum()), 3, name)
            self.assertNotIn("Not applicable", list(frame["INCP_coarse"].cat.categories))
            # The joined dwelling column: its missing codes NA (old files' linked variables listed none).
            self.assertTrue(frame["dwelling_RNTRD"].cat.ordered, name)
            self.assertEqual(list(frame["dwelling_RNTRD"].cat.categories), ["Nil payments", "$1-$199", "$200-$399", "$400 and over"], name)
            self.assertEqual(int(frame["dwelling_RNTRD"].isna().sum()), 2, name)
            self.assertEqual(frame["dwelling_RNTRD"].max(), "$400 and over")
            self.assertFalse(frame["SEXP"].cat.ordered)

    def test_missing_columns_are_unordered_factors_of_the_missing_codes(self):
        frame = self.read("new-shape")
        for column in ("HEAP_missing", "INCP_missing", "dwelling_RNTRD_missing"):
            self.assertFalse(frame[column].cat.ordered, column)
            self.assertEqual(list(frame[column].cat.categories), ["Not applicable", "Not stated"], column)
        self.assertEqual(frame["HEAP_missing"].value_counts().to_dict(), {"Not applicable": 2, "Not stated": 1})
        self.assertEqual(int(frame["dwelling_RNTRD_missing"].notna().sum()), 2)

    def test_keep_puts_the_missing_codes_back_in_either_shape(self):
        for name in ("new-shape", "old-shape"):
            kept = self.read(name, missing="keep")
            self.assertFalse(kept["HEAP"].cat.ordered)
            self.assertEqual(kept["HEAP"].astype(str).tolist()[:3], ["Not applicable", "Bachelor Degree Level", "Not stated"], name)
            self.assertEqual(kept["dwelling_RNTRD"].astype(str).tolist()[1:3], ["Not applicable", "Not stated"], name)

    def test_frames_carry_provenance_and_variable_labels_from_the_dictionary(self):
        frame = self.read("new-shape")
        self.assertEqual({k: frame.attrs[k] for k in ("query_id", "seed", "implicate", "release_version", "fitted_to")},
                         {"query_id": "qry_01TESTFIXTURE0000000000000", "seed": "5619307297291908987", "implicate": 2,
                          "release_version": "test-1", "fitted_to": "demo"})
        self.assertTrue(frame.attrs["fitted_to_text"].startswith("demo: fitted to made-up demo tables"))
        labels = frame.attrs["variable_labels"]
        self.assertEqual(labels["HEAP"], "Highest non-school qualification: level of education")
        self.assertEqual(labels["dwelling_RNTRD"], "Rent (weekly), of the record's dwelling")
        self.assertEqual(labels["HEAP_missing"], "Why HEAP is empty: its missing code")
        self.assertEqual(set(labels), set(frame.columns))


class Offline(unittest.TestCase):
    def test_parquet_metadata_is_read_from_the_file_and_else_the_arrow_schema(self):
        # A stand-in for pyarrow.parquet.ParquetFile (pyarrow is not installable where these tests
        # were written): the same attributes, .metadata.metadata (the file's key-value metadata,
        # bytes keys) and .schema_arrow.metadata (the embedded Arrow schema's).
        class Namespace:
            def __init__(self, **kw):
                self.__dict__.update(kw)

        dictionary = json.dumps({"variables": []}).encode()
        file_only = Namespace(metadata=Namespace(metadata={b"dictionary": dictionary, b"seed": b"7"}), schema_arrow=Namespace(metadata=None))
        self.assertEqual(parquet_key_value_metadata(file_only), {"dictionary": dictionary.decode(), "seed": "7"})
        schema_only = Namespace(metadata=Namespace(metadata=None), schema_arrow=Namespace(metadata={b"dictionary": dictionary}))
        self.assertEqual(parquet_key_value_metadata(schema_only), {"dictionary": dictionary.decode()})
        both = Namespace(metadata=Namespace(metadata={b"seed": b"from the file"}), schema_arrow=Namespace(metadata={b"seed": b"from the schema", b"x": b"1"}))
        self.assertEqual(parquet_key_value_metadata(both), {"seed": "from the file", "x": "1"})

    def test_a_format_this_python_cannot_read_is_refused_before_any_charge(self):
        requests = []
        server = serve([], on_request=requests.append)
        try:
            client = SpqClient(f"http://127.0.0.1:{server.server_port}", "spq_test_x", retries=0)
            lacking = next((f for f in ("parquet", "xlsx") if unreadable_format(f)), None)
            if lacking is None:
                self.skipTest("this Python reads every format")
            with self.assertRaises(ValueError) as caught:
                client.dataframe({**QUERY, "output_format": lacking})
            self.assertIn("csv", str(caught.exception))
            self.assertIn("pip install", str(caught.exception))
            self.assertIn("Nothing was charged", str(caught.exception))
            self.assertEqual(requests, [])
        finally:
            server.shutdown()
            server.server_close()
        if HAVE_PANDAS:
            self.assertIsNone(unreadable_format("csv"))

    @unittest.skipUnless(HAVE_FIXTURES, "needs test/clients/fixtures (SPQ_CLIENT_FIXTURES)")
    def test_pooled_models_equal_mice_pool(self):
        with open(os.path.join(FIXTURES, "mice-pool-lm.json"), encoding="utf-8") as f:
            fixture = json.load(f)
        mice = fixture["mice"]

        class Fit:  # what pool reads of a statsmodels result: params, cov_params(), df_resid
            def __init__(self, params, cov):
                self.params, self._cov, self.df_resid = params, cov, fixture["df_residual"]

            def cov_params(self):
                return self._cov

        by_vectors = pool(fixture["coefficients"], fixture["covariances"], df_complete=fixture["df_residual"])
        by_fits = pool([Fit(p, c) for p, c in zip(fixture["coefficients"], fixture["covariances"])])
        worst = 0.0
        for pooled in (by_vectors, by_fits):
            self.assertEqual(pooled["m"], 5)
            self.assertEqual(pooled["dfcom"], 27)
            for i, row in enumerate(pooled["terms"]):
                for ours, theirs in (("estimate", "estimate"), ("ubar", "ubar"), ("b", "b"), ("t", "t"), ("df", "df"),
                                     ("riv", "riv"), ("lambda_", "lambda"), ("fmi", "fmi")):
                    worst = max(worst, abs(row[ours] - mice[theirs][i]))
        self.assertLess(worst, 1e-8)
        print(f"\npool vs mice::pool: max abs difference {worst:.3g}", file=sys.stderr)
        # Without the complete-data df: Rubin's (m - 1) / lambda^2, as mice with dfcom = Inf.
        classic = pool(fixture["coefficients"], fixture["covariances"])
        self.assertAlmostEqual(classic["terms"][0]["df"], 4 / classic["terms"][0]["lambda_"] ** 2)
        # The total covariance matrix: ubar + (1 + 1/m) B on the diagonal.
        self.assertAlmostEqual(by_vectors["covariance"][1][1], mice["t"][1])

    def test_pool_refuses_inputs_of_the_wrong_shape(self):
        v, c = [1.0, 2.0], [[1.0, 0.0], [0.0, 1.0]]
        for estimates, variances, says in (
            ([v, v], [c], "one covariance matrix per coefficient vector"),
            ([v, [1.0, 2.0, 3.0]], [c, c], "same length"),
            ([v, v], [c, [[1.0, 0.0]]], "must be 2 x 2"),
            ([v, v], [0.1, 0.2], "square matrix"),
            ([v], [c], "at least 2"),
            ([1.0, 2.0], [[0.1], [0.2]], "variances must be numbers"),
            ([1.0, 2.0, 3.0], [0.1, 0.2], "one variance for each"),
        ):
            with self.assertRaises(ValueError, msg=says) as caught:
                pool(estimates, variances)
            self.assertIn(says, str(caught.exception))

    def test_pool_follows_rubins_rules(self):
        # Hand-computed: q = (1, 1.2, 0.9, 1.1): q_bar 1.05, b = 0.05/3, w 0.04, t = w + 1.25 b.
        pooled = pool([1.0, 1.2, 0.9, 1.1], [0.04, 0.05, 0.03, 0.04])
        self.assertAlmostEqual(pooled["q_bar"], 1.05)
        self.assertAlmostEqual(pooled["w"], 0.04)
        self.assertAlmostEqual(pooled["b"], 0.05 / 3)
        self.assertAlmostEqual(pooled["t"], 0.04 + 1.25 * 0.05 / 3)
        r = 1.25 * (0.05 / 3) / 0.04
        self.assertAlmostEqual(pooled["df"], 3 * (1 + 1 / r) ** 2)
        self.assertEqual(pooled["df_method"], "rubin")
        lower, upper = pooled["ci"]
        self.assertAlmostEqual((upper - lower) / 2, 2.0 * 1.0 * (pooled["t"] ** 0.5), delta=0.2 * pooled["t"] ** 0.5)
        # Barnard-Rubin never gives more df than the complete data have.
        small = pool([1.0, 1.2, 0.9, 1.1], [0.04, 0.05, 0.03, 0.04], df_complete=10)
        self.assertLess(small["df"], 10)
        self.assertEqual(small["df_method"], "barnard-rubin")
        # t quantile: df = 4 gives 2.776 (tables), so the 95% half-width is 2.776 sqrt(t).
        exact = pool([1.0, 2.0, 3.0, 4.0, 5.0], [0.0] * 5)
        self.assertAlmostEqual(exact["df"], 4)
        self.assertAlmostEqual((exact["ci"][1] - exact["ci"][0]) / 2, 2.7764451 * exact["t"] ** 0.5, places=5)
        with self.assertRaises(ValueError):
            pool([1.0], [0.1])

    def test_the_server_and_key_come_from_the_environment_by_default(self):
        saved = {k: os.environ.pop(k, None) for k in ("SPQ_URL", "SPQ_API_KEY")}
        try:
            with self.assertRaises(ValueError) as caught:
                SpqClient()
            self.assertIn("SPQ_API_KEY", str(caught.exception))
            os.environ["SPQ_API_KEY"] = "spq_test_x"
            self.assertEqual(SpqClient().base_url, "http://127.0.0.1:8080")
            os.environ["SPQ_URL"] = "http://example.org:9000/"
            self.assertEqual(SpqClient().base_url, "http://example.org:9000")
        finally:
            for k, v in saved.items():
                os.environ.pop(k, None)
                if v is not None:
                    os.environ[k] = v

    def test_categories_of_reads_variables_coarse_companions_and_linked_columns(self):
        dictionary = {
            "variables": [{"code": "AGE5P", "categories": ["0-4", "5-9"], "coarse_categories": ["0-14"], "coarse_column": "AGE5P_coarse"}],
            "linked_variables": [{"column": "dwelling_TEND", "categories": ["Owned outright", "Rented"]}],
        }
        self.assertEqual(categories_of(dictionary), {"AGE5P": ["0-4", "5-9"], "AGE5P_coarse": ["0-14"], "dwelling_TEND": ["Owned outright", "Rented"]})

    def test_retries_a_429_after_retry_after_then_succeeds(self):
        answers = [(429, {"Retry-After": "0"}, b'{"error":"rate_limited","detail":"slow"}'), (503, {}, b'{"error":"service_unavailable","detail":"x"}'),
                   (200, {}, b'{"credits_remaining":3}')]
        keys = []
        server = serve(answers, on_request=lambda handler: keys.append(handler.headers.get("Authorization")))
        try:
            retries = []
            client = SpqClient(f"http://127.0.0.1:{server.server_port}", "spq_test_x", backoff=0.01, on_retry=lambda a, s, w: retries.append(s))
            self.assertEqual(client.credits(), {"credits_remaining": 3})
            self.assertEqual(retries, [429, 503])
            self.assertEqual(set(keys), {"Bearer spq_test_x"})
        finally:
            server.shutdown()
            server.server_close()


def serve(answers, on_request=None):
    """A local HTTP server answering each request with the next (status, headers, body)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if on_request:
                on_request(self)
            status, headers, body = answers.pop(0)
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class RetryPolicy(unittest.TestCase):
    def test_a_retry_after_past_the_cap_raises_a_rate_limit_error_carrying_it_without_waiting(self):
        server = serve([(429, {"Retry-After": "3131"}, b'{"error":"rate_limited","detail":"at most 60 requests per minute"}')])
        try:
            waits = []
            client = SpqClient(f"http://127.0.0.1:{server.server_port}", "spq_test_x", on_retry=lambda a, s, w: waits.append(w))
            started = time.monotonic()
            with self.assertRaises(RateLimitError) as raised:
                client.credits()
            self.assertLess(time.monotonic() - started, 1.0)
            self.assertEqual(raised.exception.retry_after, 3131.0)
            self.assertEqual(raised.exception.status, 429)
            self.assertIsInstance(raised.exception, SpqError)
            self.assertIn("retry after 3131 s", str(raised.exception))
            self.assertEqual(waits, [])
        finally:
            server.shutdown()
            server.server_close()

    def test_a_missing_retry_after_backs_off_instead_of_retrying_at_once(self):
        server = serve([(429, {}, b'{"error":"rate_limited","detail":"slow"}'), (200, {}, b'{"credits_remaining":3}')])
        try:
            waits = []
            client = SpqClient(f"http://127.0.0.1:{server.server_port}", "spq_test_x", backoff=0.05, on_retry=lambda a, s, w: waits.append(w))
            self.assertEqual(client.credits(), {"credits_remaining": 3})
            self.assertEqual(len(waits), 1)
            self.assertGreaterEqual(waits[0], 0.05 * 0.75)
        finally:
            server.shutdown()
            server.server_close()

    def test_backoff_is_one_second_doubling_to_sixty(self):
        self.assertEqual([backoff_seconds(a, rand=lambda: 0.5) for a in (0, 1, 2, 3, 6, 20)], [1.0, 2.0, 4.0, 8.0, 60.0, 60.0])
        for attempt in range(12):
            self.assertGreaterEqual(backoff_seconds(attempt, rand=lambda: 0.0), 0.75)
            self.assertLessEqual(backoff_seconds(attempt, rand=lambda: 0.9999), 60.0)
        self.assertIsNone(retry_after_seconds(None))
        self.assertEqual(retry_after_seconds("7"), 7.0)
        self.assertEqual(retry_after_seconds("Wed, 25 Nov 2026 08:00:10 GMT", now=1795593600.0), 10.0)

    def test_each_error_code_has_its_class(self):
        cases = [(402, b'{"error":"insufficient_credits","detail":"needs 4"}', InsufficientCreditsError),
                 (401, b'{"error":"unauthorized","detail":"no key"}', UnauthorizedError),
                 (404, b'{"error":"not_found","detail":"no query"}', NotFoundError),
                 (422, b'{"error":"validation_error","detail":"bad"}', ValidationError),
                 (410, b'{"error":"gone","detail":"expired"}', GoneError),
                 (503, b"<html>bad gateway</html>", ServiceUnavailableError)]
        server = serve([(status, {}, body) for status, body, _ in cases])
        try:
            client = SpqClient(f"http://127.0.0.1:{server.server_port}", "spq_test_x", retries=0)
            for status, _, cls in cases:
                with self.assertRaises(cls) as raised:
                    client.credits()
                self.assertEqual(raised.exception.status, status)
        finally:
            server.shutdown()
            server.server_close()

    def test_history_items_iterate_every_page(self):
        page = lambda items, n, total: (200, {}, json.dumps({"queries": [{"query_id": q} for q in items],
                                                             "pagination": {"page": n, "per_page": 2, "total_pages": total, "total_queries": 3}}).encode())
        server = serve([page(["c", "b"], 1, 2), page(["a"], 2, 2)])
        try:
            client = SpqClient(f"http://127.0.0.1:{server.server_port}", "spq_test_x")
            self.assertEqual([q["query_id"] for q in client.history_items(per_page=2)], ["c", "b", "a"])
        finally:
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    unittest.main()
