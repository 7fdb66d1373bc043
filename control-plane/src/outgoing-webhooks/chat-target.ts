/**
 * Where a chat notification (chat-notifications/) goes: its channel's webhook URL, sealed for
 * storage and opened for each delivery by the delivery loop (deliver.ts).
 */
import type { Models } from '../db/models/index.ts';
import { openSecret, sealSecret } from '../secrets/secret-box.ts';

/** The secret-box purpose of chat webhook URLs. */
const URL_PURPOSE = 'chat-webhook-url';

/** `url` sealed for storage. */
export const sealChatUrl = (m: Models, url: string): Promise<string> => sealSecret(m, URL_PURPOSE, url);

/** The webhook URL of chat channel `channelId`, or undefined when the channel is gone. */
export async function chatChannelUrl(m: Models, channelId: string): Promise<string | undefined> {
  const channel = await m.ChatChannel.findById(channelId, { url_sealed: 1 }).lean();
  return channel ? openSecret(m, URL_PURPOSE, channel.url_sealed) : undefined;
}
