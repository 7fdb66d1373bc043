/**
 * Chat notification channels under `/dashboard/api/projects/{id}/chat-notifications`: the `/v1`
 * routes as they are (api/chat-notifications.ts). Anyone who reads the project sees them; owners
 * and admins add, remove and test them.
 */
import { chatNotificationRoutes } from '../api/chat-notifications.ts';
import type { Deps } from '../http/route.ts';
import type { DashboardRouter } from './dashboard-route.ts';
import { passThrough, v1Route } from './v1-handlers.ts';

export function registerChatNotificationRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(passThrough(v1Route(chatNotificationRoutes, 'listChatChannels'), { operationId: 'dashboardListChatChannels', permission: 'projects.read' }));
  router.add(passThrough(v1Route(chatNotificationRoutes, 'createChatChannel'), { operationId: 'dashboardCreateChatChannel', permission: 'settings.manage' }));
  router.add(passThrough(v1Route(chatNotificationRoutes, 'deleteChatChannel'), { operationId: 'dashboardDeleteChatChannel', permission: 'settings.manage' }));
  router.add(passThrough(v1Route(chatNotificationRoutes, 'testChatChannel'), { operationId: 'dashboardTestChatChannel', permission: 'settings.manage' }));
}
