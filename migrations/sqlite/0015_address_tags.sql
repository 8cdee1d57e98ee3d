-- The address book's tags (issue 22): how the rider greets the recipient (sex: male 先生 /
-- female 女士) and what the place is (tag: home 家 / company 公司 / school 学校). Both optional:
-- null on the addresses kept before, and when the customer leaves them unset.
ALTER TABLE addresses ADD COLUMN sex TEXT;
ALTER TABLE addresses ADD COLUMN tag TEXT;
