/**
 * The plugin SDK: the one engine module plugins import. Everything a plugin may
 * use of the engine is re-exported here, so the engine can reorganise its insides
 * without breaking plugins.
 */
export type {
  BusListener,
  EventList,
  PluginBus,
  PluginContext,
  PluginHooks,
  PluginLog,
} from "./context.ts";
export type { PluginModule } from "./loader.ts";
export type { ApiAuth, ApiResponse } from "../http/openapi/types.ts";
export * as s from "./schema.ts";
export type { JsonSchema, ObjectOf, Parsed, Schema, Shape } from "./schema.ts";
export {
  type BodySpec,
  describe,
  type DescribedRoute,
  type QueryParam,
  type QuerySpec,
  type RouteSpec,
} from "./route_doc.ts";
export type { CommandInfo, PluginStatus } from "../engine_admin.ts";
export type { PluginManifest } from "./manifest.ts";
export type { HelpDirEntry, HelpTopicEntry, HelpTopicInput } from "./help_registry.ts";
export type { FunctionHelpView, HelpSourcesView, PluginEngine } from "./engine_info.ts";
export type { PluginCall, PluginFunctionSpec } from "./functions.ts";
export type { PluginWorld } from "./world.ts";
export type {
  Handler,
  Payloads,
  SpeechKind,
  SpeechPayload,
  Unsubscribe,
  WorldEvents,
} from "./hooks.ts";
export type {
  CreateOptions,
  KeyParts,
  KvPage,
  PageOptions,
  PluginKv,
  PluginReserve,
} from "./kv.ts";
export type { PluginAtomic } from "./scoped_atomic.ts";
export { type PluginRates, REST_WRITE_LIMITED } from "./rates.ts";
export type { PluginQuota, QuotaSpec, TakeOptions } from "./quota.ts";
export type { NoticeBatch, NoticeOptions, PluginNotices } from "./notices.ts";
export { UniqueConflictError } from "./kv.ts";
export { counted } from "../text/plural.ts";
export { confirm } from "../commands/confirm.ts";
export type {
  EveryOptions,
  PluginDueJob as DueJob,
  PluginTimerHandler as TimerHandler,
  PluginTimers,
  TimerOptions,
} from "./timers.ts";
export type { OrphanPolicy, TimerRecord } from "../timers/scheduler.ts";
export {
  caller,
  onlyFields,
  page,
  type PluginApp,
  type PluginHttpContext,
  readJson,
  type ReadJsonOptions,
  requireFlag,
  requireStaff,
  requireUser,
  type RouteHandler,
} from "./http.ts";
export { LIST_PAGE, type Page, pageOf, type PageSizes } from "../http/pagination.ts";
export { oneLine, optionalText, requiredText, type TextOptions } from "./fields.ts";
export { ENGINE_VERSION } from "../version.ts";

export type {
  PluginCommandSdk as CommandSdk,
  PluginCommandSpec as CommandSpec,
} from "../commands/types.ts";
export type { Delivery, HubConnection, Outbound, OutboundData, PlayerIds } from "../hub/types.ts";
export type { GmcpHandler, GmcpMapper } from "../hub/gmcp_map.ts";
export type { DbObject, NewObject, ObjectData, ObjectType } from "../world/types.ts";
export type { PluginSection } from "../config/defaults.ts";
export type {
  CardPlace,
  PortalCard,
  PortalPane,
  PortalSection,
  PortalSettings,
} from "../http/portal.ts";

export {
  ConflictError,
  EngineError,
  ForbiddenError,
  NotFoundError,
  RateLimitError,
  UnauthorizedError,
  ValidationError,
} from "../errors.ts";
export { CommandError, required } from "../commands/errors.ts";
export {
  checkLock,
  LOCK_TYPE_NAMES,
  lockOf,
  type LockSubject,
  LockSyntaxError,
  lockTypeNamed,
  MAX_LOCK_LENGTH,
  parseLock,
  validLock,
} from "../world/locks.ts";
export { settableLock } from "../commands/lock_names.ts";
export { atLeast, hasFlag, isGuest, isStaff, levelOf } from "../world/flags.ts";
export { codesToMarkup, toWire } from "../softcode/markup.ts";
export { dbref, normalizeId } from "../world/ids.ts";
export { objectNameProblem } from "../world/names.ts";
export { homeOf } from "../world/start.ts";
export { controls, type ControlWorld, ownerOf } from "../world/control.ts";
export {
  announceArrival,
  announceLeaving,
  hearsWhereItIs,
  moveHeard,
} from "../world/move_heard.ts";
export { hearerOf, viewHeard } from "../world/hearing.ts";
export {
  BUILDER_LOCK,
  checkDescription,
  checkExit,
  checkLink,
  checkName,
  checkTeleport,
  exitRecord,
  type ExitSpec,
  homeRefusal,
  MAX_CONTAINMENT,
  MAX_DESCRIPTION,
  mayBuildIn,
  mayLinkTo,
  parseExitSpec,
  roomRecord,
  teleported,
  type TeleportReads,
  type TeleportRefusal,
  teleportRefusal,
  teleportRefusalSaid,
  thingRecord,
} from "../world/building.ts";
export type { Verb } from "../commands/did_it.ts";
export { hiddenFrom, shownLocation, visibleContents } from "../world/visibility.ts";
export { objectView } from "../world/views.ts";
export { typeOf } from "../world/objects.ts";
export {
  checkShape,
  MAX_VALUE_BYTES,
  type ShapeLimits,
  storableProblem,
  USER_SHAPE,
} from "../storage/limits.ts";
export { padVisible, renderAnsi, stripColour, visibleLength, wrapText } from "../text/colour.ts";
export { sanitizeText } from "../text/sanitize.ts";
export { utf8Length } from "../text/utf8.ts";
export { exitName, linkedSaid, namesOf, nameWithRef } from "../commands/format.ts";
export { displayName, MAX_ALIASES, MAX_NAMES, splitNames } from "../world/players.ts";
export type { FoundPlayers, PlayerLookup } from "../world/players.ts";
