import { useNavigate } from 'react-router';
import { Header } from '@/components/Header';
import { Loading } from '@/components/Loading';
import { useT } from '@/lib/i18n';
import { maskPhone } from '../validation';
import { Entry } from './MyPage';
import { useMe } from './useMe';
import './Account.css';

/** /my/personalInfo: the profile, with the way to complete it. */
export function PersonalInfoPage() {
  const t = useT();
  const navigate = useNavigate();
  const { user, loading } = useMe();
  if (!user && loading) return <Loading />;
  const notSet = <span className="muted">{t('info.notSet')}</span>;
  const edit = () => void navigate('/my/personalInfo/updateUserInfo');
  return (
    <div className="my">
      <Header title={t('info.title')} />
      <ul className="entries entries--flat">
        <Entry label={t('info.phone')} value={maskPhone(user?.cellPhone)} />
        <Entry label={t('info.name')} value={user?.name || notSet} onClick={edit} testId="info-name" />
        <Entry label={t('info.email')} value={user?.email || notSet} onClick={edit} />
        <Entry label={t('info.gender')} value={user && user.gender ? t(user.gender === 1 ? 'info.gender.1' : 'info.gender.2') : notSet} onClick={edit} />
        <Entry label={t('info.birthday')} value={user?.birthday || notSet} onClick={edit} />
      </ul>
      <div className="my__foot">
        <button type="button" className="btn btn--primary btn--block" onClick={edit} data-testid="info-edit">
          {t('info.edit')}
        </button>
      </div>
    </div>
  );
}
