import { createBrowserRouter } from 'react-router-dom';
import { Layout } from '../components/layout';
import { ForgotPasswordPage } from '../features/auth/forgot-password-page';
import { LoginPage } from '../features/auth/login-page';
import { RegisterPage } from '../features/auth/register-page';
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
        path: '/login',
        element: (
          <RedirectIfAuthed>
            <LoginPage />
          </RedirectIfAuthed>
        ),
      },
      {
        path: '/register',
        element: (
          <RedirectIfAuthed>
            <RegisterPage />
          </RedirectIfAuthed>
        ),
      },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
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
