import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { installErrorReporting } from './shell/error-reporting'
import { watchControls } from './shell/accessible-controls'

// Before the app: an error while it mounts must reach main too, not leave a blank window.
installErrorReporting(window, (report) => window.api.app.reportRendererError(report))
createApp(App).use(createPinia()).mount('#app')
// Naive UI's selects, close icons and steppers get their roles and names (accessible-controls.ts).
watchControls(document)
