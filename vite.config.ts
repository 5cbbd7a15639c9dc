import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  environments: {
    // The server bundle's entry is our Express host, which imports React Router's build.
    ssr: { build: { rollupOptions: { input: "./app/host/main.server.ts" } } },
  },
  plugins: [tailwindcss(), reactRouter()],
});
