-- Launch delay per kernel launch (kernel start - CUDA runtime call end, as HTA defines it), longest first.
SELECT sk.value AS kernel, sr.value AS runtime_call, b.start_ns - (a.start_ns + a.dur_ns) AS launch_delay_ns
FROM FLOW f JOIN STRING_IDS fk ON fk.id = f.kind_id AND fk.value = 'ac2g'
JOIN TASK a ON a.id = f.from_task JOIN TASK b ON b.id = f.to_task
JOIN STRING_IDS sr ON sr.id = a.name_id JOIN STRING_IDS sk ON sk.id = b.name_id
ORDER BY launch_delay_ns DESC LIMIT 100;
