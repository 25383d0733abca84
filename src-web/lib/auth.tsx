import type { UserDto } from '@contract/types';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../components/toast';
import { type ApiError, getData, getToken, onApiError, TOKEN_KEY } from './api';
import { decodeToken } from './jwt';

interface AuthState {
  user: UserDto | null;
  /** True until the stored token has been checked against the server. */
  loading: boolean;
  /** The reason shown by the ban modal, when the account turned out banned. */
  banReason: string | null;
  signIn(token: string, user: UserDto): void;
  signOut(): void;
  showBan(reason: string | null): void;
  clearBan(): void;
  /** Updates the cached user (after a profile save or a withdrawal). */
  setUser(update: (user: UserDto) => UserDto): void;
}

const AuthContext = createContext<AuthState | null>(null);
export const ME_KEY = ['me'] as const;

function storeToken(token: string | null) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // private mode without storage: the session lasts the page
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { t } = useTranslation();
  const [token, setToken] = useState<string | null>(() => getToken());
  const [banReason, setBanReason] = useState<string | null>(null);

  const me = useQuery({
    queryKey: ME_KEY,
    queryFn: () => getData<UserDto>('/users/me'),
    enabled: token !== null,
    retry: false,
    staleTime: 30_000,
  });

  const signOut = useCallback(() => {
    storeToken(null);
    setToken(null);
    queryClient.clear();
  }, [queryClient]);

  const showBan = useCallback(
    (reason: string | null) => {
      setBanReason(reason || t('ban.defaultReason'));
      signOut();
    },
    [signOut, t],
  );

  // a stored token that already says banned, or that cannot be read, is dropped at once
  useEffect(() => {
    if (!token) return;
    const claims = decodeToken(token);
    if (!claims) {
      toast.error(t('auth.decodeError'));
      signOut();
    } else if (claims.status === 'banned') showBan(claims.banReason);
  }, [token, signOut, showBan, toast, t]);

  useEffect(
    () =>
      onApiError((error: ApiError) => {
        if (error.code === 'banned')
          showBan(typeof error.details.banReason === 'string' ? error.details.banReason : null);
        else if (error.status === 401 && error.code !== 'invalid_credentials' && getToken()) {
          toast.error(t('auth.sessionExpired'));
          signOut();
        }
      }),
    [showBan, signOut, toast, t],
  );

  const value = useMemo<AuthState>(
    () => ({
      user: token ? (me.data ?? null) : null,
      loading: token !== null && me.isPending,
      banReason,
      signIn(newToken, user) {
        storeToken(newToken);
        queryClient.setQueryData(ME_KEY, user);
        setToken(newToken);
      },
      signOut,
      showBan,
      clearBan: () => setBanReason(null),
      setUser(update) {
        queryClient.setQueryData<UserDto>(ME_KEY, (old) => (old ? update(old) : old));
      },
    }),
    [token, me.data, me.isPending, banReason, queryClient, signOut, showBan],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/**
 * Whether an account is the signed-in one: an admin never approves, rejects or settles their
 * own items (the server refuses with own_item), so the screens offer no buttons for them.
 */
export function useIsSelf(): (userId: string) => boolean {
  const { user } = useAuth();
  return (userId) => user !== null && user._id === userId;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth outside AuthProvider');
  return state;
}
