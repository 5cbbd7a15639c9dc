import { startDemoServer, signIn } from "../bench/../e2e/support/demo-server.js";
