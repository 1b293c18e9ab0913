import { mount } from 'svelte'
import App from './App.svelte'
import './app.css'
import { i18n } from './i18n.svelte'

document.documentElement.lang = i18n.lang
const target = document.getElementById('app')
if (target === null) throw new Error('the page has no #app element')
mount(App, { target })
