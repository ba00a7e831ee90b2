-- The highest value of every counter track (memory in bytes) and when it was first reached.
SELECT n.value AS counter, max(c.value) AS peak, min(c.ts_ns) AS first_ts_ns
FROM COUNTER c JOIN TRACK k ON k.id = c.track_id JOIN STRING_IDS n ON n.id = k.name_id
WHERE c.value = (SELECT max(value) FROM COUNTER WHERE track_id = c.track_id)
GROUP BY c.track_id;
