// The player's corner of the top bar, for pages with no script of their own (the rules).
import {startIdentity} from "./identity.js";

startIdentity();
