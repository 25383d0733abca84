import { createBrowserRouter, Outlet } from 'react-router-dom';
import { Layout } from '../components/layout';
import { PageLoader } from '../components/page-loader';
import { NotFoundPage } from '../features/errors/not-found-page';
import { LandingPage } from '../features/landing/landing-page';
import { RedirectIfAuthed, RequireAdmin, RequireAuth } from './guards';
import { routes } from './route-modules';

// the first page may be a lazy route: while its code loads, the app shows the page loader
// (without one, React Router warns "No HydrateFallback element provided" on every such start)
export const router = createBrowserRouter([
  {
    element: <Layout />,
    hydrateFallbackElement: <PageLoader />,
    children: [
      { path: '/', element: <LandingPage /> },
      {
        element: (
          <RedirectIfAuthed>
            <Outlet />
          </RedirectIfAuthed>
        ),
        children: routes.signedOut,
      },
      ...routes.public,
      { element: <RequireAuth />, children: routes.signedIn },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    path: '/admin',
    element: <RequireAdmin />,
    hydrateFallbackElement: <PageLoader />,
    children: routes.admin,
  },
]);
