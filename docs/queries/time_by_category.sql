-- Device time per category (simulated op categories; imported kernels are classified into the same ones).
SELECT c.value AS category, count(*) AS slices, sum(t.dur_ns) / 1e6 AS total_ms
FROM TASK t JOIN TRACK k ON k.id = t.track_id JOIN STRING_IDS c ON c.id = t.category_id
WHERE k.kind IN ('compute', 'comm', 'memcpy') AND c.value != 'gpu_user_annotation'  -- annotations span kernels
GROUP BY t.category_id ORDER BY total_ms DESC;
