import { describe, expect, it } from 'vitest';
import { translate } from '@/lib/i18n';
import { chinaToday, defaultBirthday } from './components/UpdateUserInfoPage';
import { checkAgreement, checkBirthday, checkEmail, checkName, checkNewPassword, checkPhone, checkSmsCode, maskPhone } from './validation';

describe('account validation messages (spec §5)', () => {
  it.each([
    [checkPhone(''), '手机号不能为空', 'Mobile phone cannot be empty'],
    [checkPhone('1381234567'), '手机号格式不正确', 'The format of the phone number is incorrect'],
    [checkSmsCode(''), '请输入验证码', 'Please enter the verification code'],
    [checkAgreement(false), '请点击阅读并同意协议', 'Please click read and approve agreement'],
    [checkName('一二三四五六七八九十一二三四五六'), '姓名不能超过15个字符', 'Name cannot exceed 15 characters'],
    [checkName(' '), '姓名不能为空', 'Name cannot be empty'],
    [checkEmail('a@b'), '邮箱格式错误', 'Email format error'],
    [checkBirthday('', '2026-01-01'), '生日不能为空', 'Birthday cannot be empty'],
  ])('%s', (key, zh, en) => {
    expect(key).not.toBeNull();
    expect(translate('zh', key ?? '')).toBe(zh);
    expect(translate('en', key ?? '')).toBe(en);
  });

  it('passes good values', () => {
    expect(checkPhone('139 1234 5678')).toBeNull();
    expect(checkSmsCode('123456')).toBeNull();
    expect(checkNewPassword('Pizza2026ok')).toBeNull();
    expect(checkNewPassword('onlyletters')).toBe('valid.passwordRule');
    expect(checkName('一二三四五六七八九十一二三四五')).toBeNull();
    expect(checkEmail('a@b.cn')).toBeNull();
  });

  it('birthday from 1910-01-01 to today; the picker opens 14 years ago', () => {
    expect(checkBirthday('1909-12-31', '2026-05-01')).toBe('valid.birthdayRange');
    expect(checkBirthday('1910-01-01', '2026-05-01')).toBeNull();
    expect(checkBirthday('2026-05-02', '2026-05-01')).toBe('valid.birthdayRange');
    expect(defaultBirthday('2026-05-01')).toBe('2012-05-01');
    expect(defaultBirthday('2028-02-29')).toBe('2014-02-28');
    expect(chinaToday(Date.UTC(2026, 0, 1, 17, 0))).toBe('2026-01-02');
  });

  it('masks the middle four digits', () => {
    expect(maskPhone('13912345678')).toBe('139****5678');
    expect(maskPhone('139****5678')).toBe('139****5678');
    expect(maskPhone(null)).toBe('');
  });
});
