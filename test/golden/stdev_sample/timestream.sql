SELECT coalesce(stddev_samp("_c1"), 0E0) AS "stdev_x" FROM (VALUES (CAST(1E0 AS DOUBLE)), (2E0), (3E0), (4E0)) AS "_t1"("_c1") LIMIT 1001
