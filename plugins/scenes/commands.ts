/**
 * In-game scene commands in the style AresMUSH players know: `+scenes`, `+scene <#>`,
 * `+scene/start`, `/join`, `/set`, `/title`, `/type`, `/privacy`, `/share`, `/unshare`, `/invite`, `/pause`, `/resume`,
 * `/stop`, `/log`, the pose order (`/order`) and its nudge (`/nudge`), and the OOC form `ooc`.
 */
import {
  CommandError,
  type CommandSdk,
  type CommandSpec,
  type DbObject,
  type Delivery,
  padVisible,
  type PlayerLookup,
  type PluginWorld,
  stripColour,
} from "../../src/plugins/mod.ts";
import { mayView } from "./access.ts";
import type { AutoLog } from "./autolog.ts";
import { poseLine, stamp } from "./format.ts";
import { checkEnum, checkName, checkPoseText, type SceneService } from "./service.ts";
import type { SceneStore } from "./store.ts";
import { SCENE_TYPES, type SceneRecord } from "./types.ts";

/** Poses per `+scene/log` page. */
export const LOG_PAGE = 20;
/** Poses shown by `+scene <#>`. */
const TAIL = 5;
/** Scenes listed by `+scenes`. */
const LIST_MAX = 100;

/** What the commands need. */
export interface CommandDeps {
  svc: SceneService;
  store: SceneStore;
  autolog: AutoLog;
  world: Pick<PluginWorld, "getMany" | "contentsOfType">;
  players: Pick<PlayerLookup, "isConnected" | "displayName">;
  deliver: Pick<Delivery, "toRoom" | "toPlayer">;
}

/** `3m`, `2h`, `4d`: how long since `ms`. */
export function idle(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

/** The scene commands. */
export function sceneCommands(d: CommandDeps): CommandSpec[] {
  const { svc, store } = d;

  const names = async (ids: readonly string[]) => {
    const objs = new Map((await d.world.getMany(ids)).map((o) => [o.id, o.name]));
    return ids.map((id) => objs.get(id) ?? `#${id}`);
  };

  /** The scene `ref` names, or the actor's current scene in this room. */
  const target = async (u: CommandSdk, ref: string): Promise<SceneRecord> => {
    const r = ref.trim().replace(/^#/, "");
    if (r) return await svc.visible(u.me, r);
    if (!u.here) throw new CommandError("You are nowhere; give the scene's number.");
    const live = await svc.liveIn(u.here.id);
    const mine = live.filter((s) => s.participants.includes(u.me.id))
      .sort((a, b) => b.lastActivity - a.lastActivity);
    const pick = mine[0] ??
      (live.filter((s) => mayView(s, u.me)).length === 1
        ? live.find((s) => mayView(s, u.me))
        : undefined);
    if (!pick) {
      throw new CommandError(
        live.length ? "Which scene? Give its number (see +scenes)." : "There is no scene here.",
      );
    }
    return pick;
  };

  /** Who poses in which order: participants here, longest since their last pose first. */
  const order = async (s: SceneRecord) => {
    const here = new Set(
      (await d.world.contentsOfType(s.location, "player", 500)).map((p) => p.id),
    );
    const present = s.participants.filter((p) => here.has(p) && d.players.isConnected(p));
    const who = present.length ? present : s.participants;
    const rows = who.map((id) => ({ id, at: s.lastPosed[id] ?? 0 }))
      .sort((a, b) => a.at - b.at || who.indexOf(a.id) - who.indexOf(b.id));
    const n = await names(rows.map((r) => r.id));
    return rows.map((r, i) => ({ ...r, name: n[i] }));
  };

  const manage = async (
    u: CommandSdk,
    ref: string,
    change: Parameters<SceneService["patch"]>[2],
  ) => {
    const s = await target(u, ref);
    return await svc.patch(u.me, s.id, change);
  };

  const summary = async (u: CommandSdk, s: SceneRecord) => {
    const people = await names(s.participants);
    const room = (await d.world.getMany([s.location]))[0];
    const tail = await store.lastPoses(s.id, TAIL);
    const lines = [
      `%ch--- Scene ${s.id}: ${s.name}%cn%ch ---%cn`,
      `Type: ${s.sceneType}   Status: ${s.status}   ${s.private ? "Private" : "Public"}`,
      `Room: ${room ? room.name : "?"} (#${s.location})   Started: ${stamp(s.startTime)}` +
      (s.endTime !== undefined ? `   Ended: ${stamp(s.endTime)}` : ""),
      `Participants: ${people.join(", ")}`,
      ...(s.desc ? [`Set: ${s.desc}%cn`] : []),
      `Poses: ${s.poseCount}   Idle: ${idle(svc.now() - s.lastActivity)}`,
      ...(tail.length ? ["%chLast poses:%cn", ...tail.map((p) => poseLine(p))] : []),
    ];
    u.send(lines.join("\n"));
  };

  const scene: CommandSpec = {
    name: "+scene",
    guests: [""],
    switches: [
      "start",
      "join",
      "set",
      "title",
      "type",
      "privacy",
      "share",
      "unshare",
      "invite",
      "pause",
      "resume",
      "stop",
      "log",
      "order",
      "nudge",
    ],
    category: "scenes",
    help:
      "+scene <#> shows a scene; +scene/start, /join, /set, /title, /type, /privacy, /share, /unshare, " +
      "/invite, /pause, /resume, /stop, /log, /order, /nudge. See: help scenes",
    async exec(u) {
      const sw = u.cmd.switches[0];
      const { lhs, rhs } = u.cmd;
      switch (sw) {
        case undefined:
          return await summary(u, await target(u, u.cmd.args));
        case "start": {
          if (!u.here || u.here.flags.includes("room") === false) {
            throw new CommandError("You must be in a room to start a scene.");
          }
          const title = u.cmd.args.trim()
            ? checkName(u.cmd.args, "title")
            : `Scene in ${stripColour(u.here.name)}`.slice(0, 120);
          const s = await svc.create(u.me, { name: title, location: u.here.id });
          d.deliver.toRoom(u.here.id, {
            msg: `%ch${d.players.displayName(u.me)}%cn%ch starts scene ${s.id}: ${s.name}%cn%ch. ` +
              `Poses here are logged.%cn`,
            data: { type: "scene.start", sceneId: s.id, sceneName: s.name },
          });
          return;
        }
        case "join": {
          const s = await svc.join(u.me, (await target(u, u.cmd.args)).id);
          return u.send(`You join scene ${s.id}: ${s.name}%cn.`);
        }
        case "set": {
          // `<#>=<text>` only when what precedes `=` is a number: a set may hold `=` itself.
          const numbered = rhs !== null && /^#?[0-9]+$/.test(lhs);
          const s = await target(u, numbered ? lhs : "");
          const text = checkPoseText(numbered ? rhs : u.cmd.args);
          if (!text.trim()) throw new CommandError("Usage: +scene/set [<#>=]<text>");
          await svc.pose(u.me, s.id, { msg: text, type: "set" }, { broadcast: true });
          return;
        }
        case "title": {
          if (rhs === null) throw new CommandError("Usage: +scene/title <#>=<title>");
          const s = await manage(u, lhs, { name: checkName(rhs, "title") });
          return u.send(`Scene ${s.id} is now titled: ${s.name}%cn`);
        }
        case "type": {
          if (rhs === null) {
            throw new CommandError(`Usage: +scene/type <#>=<${SCENE_TYPES.join("|")}>`);
          }
          const type = checkEnum(rhs.toLowerCase(), SCENE_TYPES, "type");
          const s = await manage(u, lhs, { sceneType: type });
          return u.send(`Scene ${s.id} is now of type ${s.sceneType}.`);
        }
        case "privacy": {
          const v = (rhs ?? "").toLowerCase();
          if (v !== "public" && v !== "private") {
            throw new CommandError("Usage: +scene/privacy <#>=<public|private>");
          }
          const s = await manage(u, lhs, { private: v === "private" });
          return u.send(`Scene ${s.id} is now ${s.private ? "private" : "public"}.`);
        }
        case "share":
        case "unshare": {
          const s = await manage(u, u.cmd.args, { shared: sw === "share" });
          return u.send(
            s.shared
              ? `Scene ${s.id} is shared: visitors to the game's website may read it.`
              : `Scene ${s.id} is no longer shared with visitors.`,
          );
        }
        case "invite": {
          if (rhs === null || !rhs) throw new CommandError("Usage: +scene/invite <#>=<player>");
          const s = await svc.invite(u.me, (await target(u, lhs)).id, rhs);
          return u.send(`${rhs} may now join scene ${s.id}.`);
        }
        case "pause":
        case "resume":
        case "stop": {
          const status = sw === "pause" ? "paused" : sw === "resume" ? "active" : "closed";
          const s = await manage(u, u.cmd.args, { status });
          const what = { paused: "paused", active: "resumed", closed: "stopped" }[status];
          d.deliver.toRoom(s.location, {
            msg: `%ch${
              d.players.displayName(u.me)
            }%cn%ch ${what} scene ${s.id}: ${s.name}%cn%ch.%cn`,
            data: { type: "scene.status", sceneId: s.id, status: s.status },
          });
          if (!u.here || u.here.id !== s.location) u.send(`Scene ${s.id} ${what}.`);
          return;
        }
        case "log": {
          const s = await target(u, rhs === null ? u.cmd.args : lhs);
          const n = rhs === null ? 1 : Number(rhs);
          if (!Number.isInteger(n) || n < 1 || n > 1e6) {
            throw new CommandError("Usage: +scene/log <#>[=<page>]");
          }
          const pages = Math.max(1, Math.ceil(s.poseCount / LOG_PAGE));
          const poses = await store.posePage(s.id, { limit: LOG_PAGE, offset: (n - 1) * LOG_PAGE });
          if (!poses.length) {
            return u.send(n === 1 ? `Scene ${s.id} has no poses yet.` : `No page ${n}.`);
          }
          const more = n < pages ? [`More: +scene/log ${s.id}=${n + 1}`] : [];
          return u.send(
            [
              `%ch--- Scene ${s.id}: ${s.name}%cn%ch (page ${n} of ${pages}) ---%cn`,
              ...poses.map((p) => poseLine(p)),
              ...more,
            ].join("\n"),
          );
        }
        case "order": {
          const s = await target(u, u.cmd.args);
          const rows = await order(s);
          const now = svc.now();
          return u.send(
            [
              `%chPose order, scene ${s.id}:%cn`,
              ...rows.map((r, i) =>
                `${padVisible(`${i + 1}.`, 4)}${padVisible(r.name, 20)} ` +
                (r.at ? `last posed ${idle(now - r.at)} ago` : "has not posed")
              ),
              rows.length ? `Next up: ${rows[0].name}` : "Nobody is here to pose.",
            ].join("\n"),
          );
        }
        case "nudge": {
          const s = await target(u, u.cmd.args);
          const next = (await order(s)).find((r) => r.id !== u.me.id);
          if (!next) throw new CommandError("There is nobody to nudge.");
          if (!d.players.isConnected(next.id)) {
            throw new CommandError(`${next.name} is not connected.`);
          }
          d.deliver.toPlayer(next.id, {
            msg: `%ch${d.players.displayName(u.me)}%cn nudges you: it is your turn to pose in ` +
              `scene ${s.id}: ${s.name}%cn.`,
            data: { type: "scene.nudge", sceneId: s.id },
          });
          return u.send(`You nudge ${next.name}.`);
        }
      }
    },
  };

  const scenes: CommandSpec = {
    name: "+scenes",
    guests: true,
    category: "scenes",
    help: "+scenes lists the active and paused scenes: number, title, room, participants, idle.",
    async exec(u) {
      const page = { limit: LIST_MAX, offset: 0 };
      const [active, paused] = await Promise.all([
        store.withStatus("active", page),
        store.withStatus("paused", page),
      ]);
      const all = [...active, ...paused].sort((a, b) => Number(b.id) - Number(a.id));
      if (!all.length) return u.send("There are no active scenes. Start one: +scene/start <title>");
      const shown = (s: SceneRecord) => mayView(s, u.me);
      // Rooms and the first few participants of each scene, in two batched reads.
      const people = [...new Set(all.filter(shown).flatMap((s) => s.participants.slice(0, 4)))];
      const named = new Map(
        (await d.world.getMany([...new Set([...all.map((s) => s.location), ...people])]))
          .map((o) => [o.id, stripColour(o.name)]),
      );
      const now = svc.now();
      const lines = [
        `%ch${padVisible("#", 5)}${padVisible("Title", 24)}${padVisible("Room", 16)}` +
        `${padVisible("Participants", 26)}Idle%cn`,
      ];
      for (const s of all) {
        const open = shown(s);
        const title = (open ? stripColour(s.name) : "(private scene)") +
          (s.status === "paused" ? " (paused)" : "");
        const room = open ? named.get(s.location) ?? `#${s.location}` : "-";
        const who = open
          ? s.participants.slice(0, 4).map((p) => named.get(p) ?? `#${p}`).join(", ") +
            (s.participants.length > 4 ? ` +${s.participants.length - 4}` : "")
          : String(s.participants.length);
        lines.push(
          `${padVisible(s.id, 5)}${padVisible(title.slice(0, 23), 24)}` +
            `${padVisible(room.slice(0, 15), 16)}${padVisible(who.slice(0, 25), 26)}` +
            idle(now - s.lastActivity),
        );
      }
      u.send(lines.join("\n"));
    },
  };

  const ooc: CommandSpec = {
    name: "ooc",
    guests: true,
    category: "scenes",
    help: "ooc <text> says something out of character to the room; ooc :<action> poses it. " +
      "In a room with an active scene it is logged as an OOC entry.",
    async exec(u: CommandSdk) {
      const text = u.cmd.args;
      const posed = text.startsWith(":");
      const body = posed ? text.slice(1).trimStart() : text;
      if (!body.trim()) throw new CommandError("Say what, out of character?");
      if (!u.here) throw new CommandError("There is no one here to hear you.");
      const me: DbObject = u.me;
      const name = d.players.displayName(me);
      d.deliver.toRoom(u.here.id, {
        msg: posed ? `[OOC] ${name} ${body}%cn` : `[OOC] ${name}: ${body}%cn`,
        data: { type: "ooc", from: { id: me.id, name: me.name, moniker: name }, text: body },
      });
      await d.autolog.record(me, u.here.id, body, "ooc", svc.now());
    },
  };

  return [scene, scenes, ooc];
}
