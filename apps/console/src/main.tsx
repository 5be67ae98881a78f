// The console's entry point: one query cache, the session, the password dialog and the router.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { shouldRetry } from './api/retry-policy';
import { ReauthenticationProvider } from './auth/reauthentication-dialog';
import { SessionProvider } from './auth/session-context';
import { router } from './routes/router';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    // No refetch on window focus: every request keeps the session alive, so only a person's actions
    // should make them, or an unattended console would never reach its idle timeout.
    queries: { retry: shouldRetry, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <ReauthenticationProvider>
          <RouterProvider router={router} />
        </ReauthenticationProvider>
      </SessionProvider>
    </QueryClientProvider>
  </StrictMode>,
);
