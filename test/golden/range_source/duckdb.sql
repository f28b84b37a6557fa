SELECT "_c1" AS "x" FROM (SELECT generate_series AS "_c1" FROM generate_series(CAST(1 AS BIGINT), CAST(5 AS BIGINT), CAST(2 AS BIGINT))) AS "_t1" LIMIT 1001
