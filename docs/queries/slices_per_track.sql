-- Tracks with their device, kind, slice count and busy time.
SELECT d.value AS device, n.value AS track, k.kind, count(t.id) AS slices, coalesce(sum(t.dur_ns), 0) / 1e6 AS busy_ms
FROM TRACK k JOIN DEVICE dv ON dv.id = k.device_id JOIN STRING_IDS d ON d.id = dv.name_id
JOIN STRING_IDS n ON n.id = k.name_id LEFT JOIN TASK t ON t.track_id = k.id AND t.depth = 0
GROUP BY k.id ORDER BY k.device_id, k.sort_index;
