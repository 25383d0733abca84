/** The push id a notification goes to: the OneSignal id, else the device id; null without either. */
export function pushIdOf(user: { oneSignalId: string | null; device_id: string | null }): string | null {
  return user.oneSignalId?.trim() || user.device_id?.trim() || null;
}
