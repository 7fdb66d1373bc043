/** Entry point: mounts the app and routes link clicks through the history router. */
import { render } from 'preact';
import { App } from './app.tsx';
import { interceptLinks } from './router.ts';
import './styles.css';

const root = document.getElementById('app')!;
interceptLinks(document.body);
render(<App />, root);
