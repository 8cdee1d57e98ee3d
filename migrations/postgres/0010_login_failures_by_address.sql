-- Wrong passwords and PINs are counted per account and client address (a few tries lock only
-- that pair) and per scope, the phone or the store (a higher ceiling slows a guesser with many
-- addresses). `phone` stays the account key: the phone, or "staff:<store>:<staff>".
ALTER TABLE login_failures ADD COLUMN client_ip TEXT NOT NULL DEFAULT '';
ALTER TABLE login_failures ADD COLUMN scope_key TEXT NOT NULL DEFAULT '';
UPDATE login_failures SET scope_key = phone;
CREATE INDEX login_failures_scope ON login_failures (scope_key, failed_at);
