// Entry point: the page loads once, hidden, at app start and from then on only reacts to events.
import './style.css';
import { startApp } from './app';

void startApp(document.getElementById('app')!);
