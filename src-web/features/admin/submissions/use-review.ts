import type { ReviewRequest } from '@contract/review';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKeys, reviewSubmission } from '../../../components/admin/admin-api';
import { newIdempotencyKey } from '../../../components/admin/idempotency-key';
import { serverErrorText } from '../../../components/admin/server-error';
import { useToast } from '../../../components/toast';
import { ApiError } from '../../../lib/api';

/**
 * Sends a review with one Idempotency-Key per opened modal (a double click or a retry after a lost
 * reply moves no money twice). `errorKey` names the failure message when the server gave none.
 */
export function useReview(submissionId: string, onDone: () => void) {
  const { t } = useTranslation('adminLists');
  const toast = useToast();
  const queryClient = useQueryClient();
  const [key] = useState(newIdempotencyKey);
  const [failure, setFailure] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: ({ request }: { request: ReviewRequest; errorKey: string }) =>
      reviewSubmission(submissionId, request, key),
    onMutate: () => setFailure(null),
    onSuccess: (_data, { request }) => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      toast.success(t(request.status === 'approved' ? 'approvalSuccess' : 'rejectionSuccess'));
      onDone();
    },
    onError: (err, { errorKey }) => {
      // someone else reviewed it meanwhile: the list shows the new state
      if (err instanceof ApiError && err.code === 'already_reviewed') {
        void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      }
      setFailure(serverErrorText(t, err, `adminLists:${errorKey}`));
    },
  });
  return {
    send: (request: ReviewRequest, errorKey: string) => mutation.mutate({ request, errorKey }),
    sending: mutation.isPending,
    pendingStatus: mutation.isPending ? mutation.variables?.request.status : undefined,
    failure,
  };
}
