import { DEFAULT_SETTINGS } from '@contract/settings-defaults';
import type { SettingsDto } from '@contract/types';
import { useQuery } from '@tanstack/react-query';
import { getData } from './api';

export const SETTINGS_KEY = ['settings'] as const;

/** The public site settings; the built-in defaults while loading or when the call fails. */
export function useSettings(): SettingsDto {
  const { data } = useQuery({
    queryKey: SETTINGS_KEY,
    queryFn: () => getData<SettingsDto>('/settings'),
    staleTime: 5 * 60_000,
    retry: 1,
  });
  return data ?? DEFAULT_SETTINGS;
}
