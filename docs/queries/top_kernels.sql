-- The 20 kernels with the most device time (name, calls, total and mean in µs).
SELECT s.value AS kernel, count(*) AS calls, sum(t.dur_ns) / 1000.0 AS total_us, avg(t.dur_ns) / 1000.0 AS mean_us
FROM TASK t JOIN TRACK k ON k.id = t.track_id JOIN STRING_IDS s ON s.id = t.name_id
WHERE k.kind IN ('compute', 'comm', 'memcpy')
  AND t.category_id NOT IN (SELECT id FROM STRING_IDS WHERE value = 'gpu_user_annotation')  -- spans kernels
GROUP BY t.name_id ORDER BY sum(t.dur_ns) DESC LIMIT 20;
