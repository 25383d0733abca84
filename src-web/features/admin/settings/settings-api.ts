import type { SettingsUpdateInput } from '@contract/admin';
import type { SettingsDto } from '@contract/types';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getData } from '../../../lib/api';
import { SETTINGS_KEY } from '../../../lib/settings';

/** The stored settings, fresh when the page opens (the footer shares this cache entry). */
export function useAdminSettings() {
  return useQuery({
    queryKey: SETTINGS_KEY,
    queryFn: ({ signal }) => getData<SettingsDto>('/settings', { signal }),
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/** After any change the ['settings'] query is refreshed, so the footer and top bar follow. */
function useSettingsChange<V>(mutationFn: (value: V) => Promise<SettingsDto>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (settings) => {
      queryClient.setQueryData(SETTINGS_KEY, settings);
      return queryClient.invalidateQueries({ queryKey: SETTINGS_KEY });
    },
  });
}

/** PUT /api/settings with one or more sections. */
export const useUpdateSettings = () =>
  useSettingsChange((patch: SettingsUpdateInput) =>
    getData<SettingsDto>('/settings', { method: 'PUT', body: patch }),
  );

export type SiteImage = 'logo' | 'favicon';

/** PUT /api/settings/logo or /favicon, multipart with the file in the field of that name. */
export const useUploadSiteImage = (field: SiteImage) =>
  useSettingsChange((file: File) => {
    const form = new FormData();
    form.set(field, file, file.name);
    return getData<SettingsDto>(`/settings/${field}`, { method: 'PUT', form });
  });
