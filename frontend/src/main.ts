import { createApp } from 'vue'
import App from './App.vue'
import { router } from './router'
import { reloadOnStaleChunks } from './lib/staleChunks'
import './lib/theme'
import './styles.css'

reloadOnStaleChunks()
createApp(App).use(router).mount('#app')
