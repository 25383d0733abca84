import { createBrowserRouter, Outlet } from 'react-router-dom';
import { Layout } from '../components/layout';
import { NotFoundPage } from '../features/errors/not-found-page';
import { LandingPage } from '../features/landing/landing-page';
import { RedirectIfAuthed, RequireAdmin, RequireAuth } from './guards';
import { routes } from './route-modules';

export const router = createBrowserRouter([
  {
    element: <Layout />,
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
    children: routes.admin,
  },
]);
